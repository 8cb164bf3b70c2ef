#pragma once

#include "policy/shell_parts.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run::parts {

// The best-effort part parser behind shell_parts(): its shared state and the one-pass parser. Its
// methods live in parts_commands.cpp (command lists, keywords, commands), parts_redirects.cpp
// (redirections and here-documents) and parts_words.cpp (words, quotes and substitutions).

inline constexpr int k_max_depth = 24;
inline constexpr std::size_t k_max_parts = 2048;

/// One word being read: its value after quote removal and how it was written.
struct Word {
  std::string value;
  std::string raw;
  bool quoted = false;
};

/// A here-document or here-string body and the command that reads it.
struct Body {
  std::size_t owner = 0;  // the reading command's id (Shared::index_of)
  std::string text;
  bool expands = true;  // an unquoted delimiter: substitutions in the body run
};

/// What every parser of one line shares: the output, the bodies, the ids of commands, the limits.
struct Shared {
  ShellParts& out;
  std::vector<Body> bodies;
  std::vector<std::optional<std::size_t>> index_of;  // command id -> index in out.commands, once pushed
  std::vector<int> pipeline_of;                      // index in out.commands -> pipeline
  int next_pipeline = 0;
  int depth = 0;
  bool stopped = false;
  std::string folder;  // where the last `cd` went, as written
};

/// The state of the command being read, saved around a nested list.
struct Building {
  SimpleCommand command;
  std::size_t id = 0;
  std::size_t start = 0;
  std::size_t end = 0;
  bool started = false;
};

/// Keyword state: what the next words of the command position are.
enum class Expect { command, case_subject, case_in, for_name, for_in, for_words, function_name };

/// A here-document waiting for the next line break of its text.
struct PendingBody {
  std::size_t owner = 0;
  std::string delimiter;
  bool strip_tabs = false;
  bool expands = true;
};

/// One pass over one text (the line, a backtick substitution, a body, an eval), feeding Shared.
class PartsParser {
 public:
  PartsParser(std::string_view text, Shared& shared) : m_text(text), m_shared(shared) { begin_command(); }

  /// The whole text as a command list.
  void parse_script();
  /// Only the substitutions of a text that is data (an unquoted here-document body).
  void parse_substitutions();

 private:
  bool at_end() const { return m_i >= m_text.size(); }
  char peek(std::size_t ahead = 0) const { return m_i + ahead < m_text.size() ? m_text[m_i + ahead] : '\0'; }
  void skip_blanks();

  // Command lists and commands (parts_commands.cpp).
  void begin_command();
  void mark_start();
  void new_pipeline() { ++m_shared.next_pipeline; }
  void parse_list(char end);
  void separate();
  void read_semicolon();
  /// `f()` defines a function (its body is read as commands); otherwise a subshell.
  void read_open_paren();
  /// A nested list (subshell, `$(...)`, `<(...)`) read in place, the command around it kept aside.
  void nested(char end);
  /// A separate text (backticks, eval, a body) parsed as a script.
  void sub_script(const std::string& text);
  void stop();
  /// A case item's patterns up to their `)` (or the case's `esac`): nothing there runs but substitutions.
  void skip_case_pattern();
  /// `((...))` and `$((...))` after their opening: arithmetic, where `<<` is a shift, not a
  /// here-document; only its substitutions run commands.
  void read_arithmetic();
  void read_argument();
  /// Keywords in the command position; true when the word was one (or one that a keyword skips).
  bool take_keyword(const Word& word);
  void finish_command();
  void begin_command_keeping_start();
  /// `cd DIR` and `pushd DIR`: later relative paths are also checked from DIR.
  void follow_cd(const SimpleCommand& command);

  // Redirections and here-documents (parts_redirects.cpp).
  void read_redirect(std::optional<int> fd);
  /// `<<DELIM`, `<<-DELIM` (the body comes after the next line break) or `<<< word`.
  void read_here(bool here_string);
  void read_pending_bodies();

  // Words (parts_words.cpp).
  Word read_word();
  /// One quoted string, escape, substitution or plain character of a word.
  Word read_word_piece(char c);
  void read_double_quoted(Word& word);
  /// `$(...)`, `$((...))`, `${...}`, `$'...'`, `$"..."`, `$NAME` and the special parameters.
  void read_dollar(Word& word);
  /// The inside of `${...}` up to its brace: only its substitutions matter.
  void read_parameter();
  /// `$'...'` after its opening quote: the escapes decoded as bash decodes them.
  std::string read_ansi_c();
  char read_code(int base, int digits);
  void read_backtick(Word& word);
  /// `NAME=(a b c)`: the array's words, substitutions included, belong to the assignment.
  void read_array(Word& word);

  std::string_view m_text;
  Shared& m_shared;
  std::size_t m_i = 0;
  Building m_building;
  Expect m_expect = Expect::command;
  bool m_expect_pattern = false;
  int m_cases = 0;
  std::vector<PendingBody> m_pending;
};

}  // namespace agent_run::parts
