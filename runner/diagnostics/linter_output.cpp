#include "base/json.h"
#include "base/text.h"
#include "diagnostics/linters.h"

#include <array>
#include <optional>
#include <regex>

namespace agent_run {

namespace {

constexpr std::size_t k_raw_lines = 10;

std::string absolute_path(const std::string& path, const std::filesystem::path& cwd) {
  std::filesystem::path p(path);
  if (p.is_relative()) p = cwd / p;
  return p.lexically_normal().string();
}

/// Takes a trailing " [code]" off `message` into `code`.
void split_trailing_code(std::string& message, std::string& code) {
  if (message.empty() || message.back() != ']') return;
  std::size_t open = message.rfind(" [");
  if (open == std::string::npos) return;
  code = message.substr(open + 2, message.size() - open - 3);
  message.erase(open);
}

/// Splits "error[E0308]: text" / "warning: text" / "note: text" into severity, code and text.
std::string take_severity(std::string& rest, std::string& code) {
  static const std::regex k_prefix(R"(^(fatal error|error|warning|note)(\[([^\]]+)\])?: )");
  std::smatch match;
  if (!std::regex_search(rest, match, k_prefix)) return {};
  std::string severity = match[1].str() == "fatal error" ? "error" : match[1].str();
  if (match[3].matched) code = match[3].str();
  rest = match.suffix().str();
  return severity;
}

bool is_pyflakes_warning(const std::string& message) {
  static constexpr std::array<const char*, 9> k_warnings = {"imported but unused",
                                                            "is assigned to but never used",
                                                            "redefinition of unused",
                                                            "unable to detect undefined names",
                                                            "f-string is missing placeholders",
                                                            "shadowed by loop variable",
                                                            "may be undefined, or defined from star imports",
                                                            "is not used",
                                                            "comparison with"};
  for (const char* phrase : k_warnings) {
    if (message.find(phrase) != std::string::npos) return true;
  }
  return false;
}

/// gcc, clang, shellcheck -f gcc, cargo --message-format short, go build and vet, pyflakes, ruff: path:line:col: text.
std::vector<Problem> parse_colon_lines(LinterFormat format, const std::string& output,
                                       const std::filesystem::path& cwd) {
  static const std::regex k_line(R"(^(.+?):(\d+):(?:(\d+):)? (.*)$)");
  std::vector<Problem> problems;
  for (std::string line : split(output, '\n')) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (format == LinterFormat::go_vet && line.rfind("vet: ", 0) == 0) line.erase(0, 5);  // vet's type check
    std::smatch match;
    if (!std::regex_match(line, match, k_line)) continue;
    Problem problem;
    problem.path = absolute_path(match[1].str(), cwd);
    problem.line = std::stoi(match[2].str());
    problem.column = match[3].matched ? std::stoi(match[3].str()) : 1;
    std::string rest = match[4].str();
    std::string severity = take_severity(rest, problem.code);
    if (severity == "note") {
      if (format == LinterFormat::gcc && !problems.empty()) problems.back().message += "\n" + rest;
      continue;  // gcc: part of the previous problem; shellcheck: style advice, not shown
    }
    if ((format == LinterFormat::go_build || format == LinterFormat::go_vet) && rest == "too many errors") continue;
    if (format == LinterFormat::gcc || format == LinterFormat::shellcheck) split_trailing_code(rest, problem.code);
    if (severity.empty() && format == LinterFormat::pyflakes)
      severity = is_pyflakes_warning(rest) ? "warning" : "error";
    if (severity.empty() && format == LinterFormat::ruff) {
      std::size_t space = rest.find(' ');
      problem.code = rest.substr(0, space);
      rest = space == std::string::npos ? "" : rest.substr(space + 1);
      if (rest.rfind("[*] ", 0) == 0) rest.erase(0, 4);
      severity = problem.code == "F821" || problem.code.rfind("E9", 0) == 0 ? "error" : "warning";
    }
    problem.severity = severity.empty() ? "error" : severity;
    problem.message = rest;
    problems.push_back(std::move(problem));
  }
  return problems;
}

/// One finding of `go vet -json` ({"posn": "path:line:col", "message": ...}) from `analyzer`, as a warning.
std::optional<Problem> vet_finding(const Json& finding, const std::string& analyzer, const std::filesystem::path& cwd) {
  static const std::regex k_position(R"(^(.+?):(\d+):(?:(\d+))?$)");
  std::smatch match;
  const std::string position = finding.get_string("posn");
  if (!std::regex_match(position, match, k_position)) return std::nullopt;
  return Problem{absolute_path(match[1].str(), cwd), std::stoi(match[2].str()),
                 match[3].matched ? std::stoi(match[3].str()) : 1, "warning", finding.get_string("message"), analyzer,
                 false};
}

/// `go vet -json`: the analyzers' findings are JSON objects (one per package, after its `# package`
/// line) and warnings; every other `path:line:col: message` line is a type error, which is an error
/// whatever its form: vet's own type check (`vet: ` before it), or, under every Go from 1.19 on, the
/// compiler's, when a package vet needs (the package's test variant, an imported one) does not build.
std::vector<Problem> parse_go_vet(const std::string& output, const std::filesystem::path& cwd) {
  std::vector<Problem> problems;
  std::string plain;
  std::string object;  // the JSON object being read, from its "{" line to its "}" line
  for (std::string line : split(output, '\n')) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (object.empty() && line != "{") {
      plain += line + "\n";
      continue;
    }
    object += line + "\n";
    if (line != "}") continue;
    auto packages = parse_json(object);
    object.clear();
    if (!packages || !packages->is_object()) continue;
    for (const auto& [package, analyzers] : packages->as_object()) {
      if (!analyzers.is_object()) continue;
      for (const auto& [analyzer, findings] : analyzers.as_object()) {
        if (findings.is_object()) {  // {"error": "..."}: the analyzer failed; a position in it is an error
          for (Problem& problem : parse_colon_lines(LinterFormat::go_build, findings.get_string("error"), cwd))
            problems.push_back(std::move(problem));
          continue;
        }
        if (!findings.is_array()) continue;
        for (const Json& finding : findings.as_array()) {
          if (auto problem = vet_finding(finding, analyzer, cwd)) problems.push_back(std::move(*problem));
        }
      }
    }
  }
  std::vector<Problem> errors = parse_colon_lines(LinterFormat::go_vet, plain + object, cwd);
  errors.insert(errors.end(), std::make_move_iterator(problems.begin()), std::make_move_iterator(problems.end()));
  return errors;
}

/// tsc --pretty false: path(line,col): error TS2322: text, continuation lines indented.
std::vector<Problem> parse_tsc(const std::string& output, const std::filesystem::path& cwd) {
  static const std::regex k_line(R"(^(.+)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$)");
  std::vector<Problem> problems;
  for (std::string line : split(output, '\n')) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch match;
    if (std::regex_match(line, match, k_line)) {
      problems.push_back(Problem{absolute_path(match[1].str(), cwd), std::stoi(match[2].str()),
                                 std::stoi(match[3].str()), match[4].str(), match[6].str(), match[5].str(), false});
    } else if (line.rfind("  ", 0) == 0 && !problems.empty()) {
      problems.back().message += "\n" + std::string(trim(line));
    }
  }
  return problems;
}

/// eslint -f json: [{filePath, messages: [{severity, message, line, column, ruleId}]}].
std::vector<Problem> parse_eslint(const std::string& output) {
  std::vector<Problem> problems;
  std::size_t start = output.find('[');
  auto json = start == std::string::npos ? Expected<Json>(make_error("none")) : parse_json(output.substr(start));
  if (!json || !json->is_array()) return problems;
  for (const Json& file : json->as_array()) {
    const Json* messages = file.find("messages");
    if (!messages || !messages->is_array()) continue;
    for (const Json& message : messages->as_array()) {
      const Json* severity = message.find("severity");
      const Json* line = message.find("line");
      const Json* column = message.find("column");
      problems.push_back(Problem{file.get_string("filePath"),
                                 line && line->is_integer() ? static_cast<int>(line->as_int()) : 1,
                                 column && column->is_integer() ? static_cast<int>(column->as_int()) : 1,
                                 severity && severity->is_integer() && severity->as_int() == 1 ? "warning" : "error",
                                 message.get_string("message"), message.get_string("ruleId"), false});
    }
  }
  return problems;
}

/// bash -n: path: line N: text.
std::vector<Problem> parse_bash_n(const std::string& output, const std::filesystem::path& cwd) {
  static const std::regex k_line(R"(^(.+?): line (\d+): (.*)$)");
  std::vector<Problem> problems;
  for (const std::string& line : split(output, '\n')) {
    std::smatch match;
    if (std::regex_match(line, match, k_line)) {
      problems.push_back(Problem{absolute_path(match[1].str(), cwd), std::stoi(match[2].str()), 1, "error",
                                 match[3].str(), "", false});
    }
  }
  return problems;
}

}  // namespace

std::vector<Problem> parse_linter_output(LinterFormat format, const std::string& output, int exit_code,
                                         const std::filesystem::path& cwd, const std::filesystem::path& file) {
  std::vector<Problem> problems;
  switch (format) {
    case LinterFormat::tsc: problems = parse_tsc(output, cwd); break;
    case LinterFormat::eslint_json: problems = parse_eslint(output); break;
    case LinterFormat::bash_n: problems = parse_bash_n(output, cwd); break;
    case LinterFormat::go_vet: problems = parse_go_vet(output, cwd); break;
    default: problems = parse_colon_lines(format, output, cwd); break;
  }
  if (problems.empty() && exit_code != 0) {
    std::vector<std::string> lines = split(std::string(trim(output)), '\n');
    if (lines.size() > k_raw_lines) lines.resize(k_raw_lines);
    problems.push_back(Problem{file.string(), 0, 0, "error", join(lines, "\n"), "", false});
  }
  return problems;
}

}  // namespace agent_run
