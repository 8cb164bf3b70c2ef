#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// Where a node starts in its file: 1-based line and column (columns count bytes).
struct YamlMark {
  int line = 1;
  int column = 1;
};

/// How a scalar was written: plain scalars may be numbers or booleans, the others are always strings.
enum class ScalarStyle {
  plain,   // written bare: `30`, `true`, `hello`
  quoted,  // '...', "...", a `|` or `>` block, or with an explicit tag
};

struct YamlEntry;

/// One node of a parsed YAML document: null, a scalar, a sequence or a map, with its position.
/// Our own type so that no header outside yaml_document.cpp sees yaml-cpp.
struct YamlNode {
  enum class Kind { null, scalar, sequence, map };

  Kind kind = Kind::null;
  YamlMark mark;
  std::string scalar;                      // kind == scalar
  ScalarStyle style = ScalarStyle::plain;  // kind == scalar
  std::vector<YamlNode> items;             // kind == sequence
  std::vector<YamlEntry> entries;          // kind == map, in file order, no duplicate keys

  bool is_null() const { return kind == Kind::null; }
  bool is_scalar() const { return kind == Kind::scalar; }
  bool is_sequence() const { return kind == Kind::sequence; }
  bool is_map() const { return kind == Kind::map; }
  /// The value of map entry `key`, or nullptr when this is not a map or has no such key.
  const YamlNode* find(std::string_view key) const;
};

/// One key/value pair of a map; the key has its own position.
struct YamlEntry {
  std::string key;
  YamlMark key_mark;
  YamlNode value;
};

/// One thing wrong with a file, at a position.
struct YamlProblem {
  YamlMark mark;
  std::string message;
};

/// A parsed YAML file. Anchors and aliases are refused (a problem each), not resolved.
struct YamlDocument {
  std::optional<YamlNode> root;       // nullopt after a syntax error: nothing else can be trusted
  std::vector<YamlProblem> problems;  // syntax error, duplicate keys, a second document, anchors
};

/// Parses one YAML document. An empty file gives a null root at 1:1. Problems yaml-cpp 0.7 lets
/// through silently (duplicate keys, an unterminated quote at the end of the file, several
/// documents) are reported like its syntax errors.
YamlDocument parse_yaml(std::string_view text);

/// A scalar, sequence or map as JSON: plain scalars that are JSON numbers, true/false or null
/// (or `~`, or nothing) become those; every other scalar, quoted ones included, is a string.
Json yaml_to_json(const YamlNode& node);

/// True when some key of map `node` outside `known` is a likely misspelling of `key`: its "did you
/// mean" already names `key`, so a loader leaves out saying that `key` is missing.
bool has_misspelling_of(const YamlNode& node, std::string_view key, const std::vector<std::string>& known);

/// How a node reads in a message: `'abc'` for a scalar (cut to one short line), else `a map`,
/// `a list` or `nothing`.
std::string describe_yaml(const YamlNode& node);

/// Reads typed values out of one file's tree and collects every problem on the way, so that a loader
/// reports them all at once. `name` arguments are dotted paths such as `limits.turns`.
class YamlChecker {
 public:
  /// `file` is printed before each problem: the path as the user gave it.
  explicit YamlChecker(std::string file);

  /// Records a problem.
  void add(YamlMark mark, std::string message);
  /// Records problems found by parse_yaml.
  void add_all(const std::vector<YamlProblem>& problems);
  /// True while no problem has been recorded.
  bool ok() const { return m_problems.empty(); }
  /// The file, as the user gave it.
  const std::string& file() const { return m_file; }
  /// Every problem in file order, one `FILE:LINE:COL: message` per line.
  Error error() const;
  /// `FILE:LINE:COL` of `mark` in this file, as problems name it.
  std::string where(YamlMark mark) const;

  /// Checks that `node` is a map (naming it `name`, or `the file` when empty) whose keys are all in
  /// `known`. A key in `unsupported` is "not supported yet"; any other key is unknown, with a
  /// "did you mean" or the list of known keys. Returns false when `node` is not a map.
  bool check_map(const YamlNode& node, std::string_view name, const std::vector<std::string>& known,
                 const std::vector<std::string>& unsupported = {});
  /// A scalar as a string; an empty string is a problem too.
  std::optional<std::string> text(const YamlNode& node, std::string_view name);
  /// A plain integer in [minimum, maximum].
  std::optional<std::int64_t> integer(const YamlNode& node, std::string_view name, std::int64_t minimum,
                                      std::int64_t maximum);
  /// A plain number greater than zero.
  std::optional<double> positive_number(const YamlNode& node, std::string_view name);
  /// A plain number in [minimum, maximum].
  std::optional<double> number_in(const YamlNode& node, std::string_view name, double minimum, double maximum);
  /// A share of a whole: `80%` or `0.8`, above 0 and at most 1.
  std::optional<double> share(const YamlNode& node, std::string_view name);
  /// A duration longer than zero, as parse_duration reads it (`90s`, `15m`, `1h`).
  std::optional<std::chrono::milliseconds> duration(const YamlNode& node, std::string_view name);
  /// One of `choices`, with a "did you mean" when it is close to one.
  std::optional<std::string> choice(const YamlNode& node, std::string_view name,
                                    const std::vector<std::string>& choices);
  /// The items of a sequence, or nullptr (and a problem) when `node` is something else.
  const std::vector<YamlNode>* list(const YamlNode& node, std::string_view name);
  /// A sequence of non-empty strings; each bad item is a problem of its own.
  std::optional<std::vector<std::string>> text_list(const YamlNode& node, std::string_view name);

 private:
  std::string m_file;
  std::vector<YamlProblem> m_problems;
};

}  // namespace agent_run
