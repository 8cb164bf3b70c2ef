#include "policy/shell_parts.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

namespace agent_run {

namespace {

constexpr int k_max_depth = 24;
constexpr std::size_t k_max_parts = 2048;

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool ends_word(char c) {
  return is_blank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')';
}

bool all_digits(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), is_digit); }

/// Words that are shell syntax in the command position and run nothing themselves.
bool is_dropped_keyword(std::string_view word) {
  static constexpr std::array<std::string_view, 14> k_words = {"!",  "{",  "}",    "if",    "then",  "else", "elif",
                                                               "fi", "do", "done", "while", "until", "esac", "coproc"};
  return std::find(k_words.begin(), k_words.end(), word) != k_words.end();
}

/// The length of `NAME=` or `NAME+=` at the start of a word as written, or 0.
std::size_t assignment_prefix(std::string_view raw) {
  if (raw.empty() || !is_name_start(raw[0])) return 0;
  std::size_t i = 1;
  while (i < raw.size() && is_name_char(raw[i])) ++i;
  if (i < raw.size() && raw[i] == '=') return i + 1;
  if (i + 1 < raw.size() && raw[i] == '+' && raw[i + 1] == '=') return i + 2;
  return 0;
}

/// True when a word names a shell that could read a here-document as its script.
bool names_a_shell(std::string_view word) {
  std::size_t slash = word.rfind('/');
  std::string_view name = slash == std::string_view::npos ? word : word.substr(slash + 1);
  static constexpr std::array<std::string_view, 8> k_shells = {"sh",  "bash", "dash", "zsh",
                                                               "ksh", "ash",  "mksh", "busybox"};
  return std::find(k_shells.begin(), k_shells.end(), name) != k_shells.end();
}

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
  void parse_script() {
    parse_list(0);
    finish_command();
  }

  /// Only the substitutions of a text that is data (an unquoted here-document body).
  void parse_substitutions() {
    while (!at_end() && !m_shared.stopped) {
      const char c = peek();
      if (c == '\\') {
        m_i += 2;
      } else if (c == '$' || c == '`') {
        Word ignored;
        c == '$' ? read_dollar(ignored) : read_backtick(ignored);
      } else {
        ++m_i;
      }
    }
  }

 private:
  bool at_end() const { return m_i >= m_text.size(); }
  char peek(std::size_t ahead = 0) const { return m_i + ahead < m_text.size() ? m_text[m_i + ahead] : '\0'; }
  void skip_blanks() {
    while (!at_end() && is_blank(peek())) ++m_i;
  }

  void begin_command() {
    m_building = Building{};
    m_building.id = m_shared.index_of.size();
    m_shared.index_of.emplace_back();
  }

  void mark_start() {
    if (!m_building.started) {
      m_building.start = m_i;
      m_building.started = true;
    }
  }

  void new_pipeline() { ++m_shared.next_pipeline; }

  void parse_list(char end) {
    while (!m_shared.stopped) {
      skip_blanks();
      if (at_end()) return;
      if (m_expect_pattern) {
        skip_case_pattern();
        continue;
      }
      const char c = peek();
      if (end != 0 && c == end) {
        ++m_i;
        return;
      }
      switch (c) {
        case '\n':
          ++m_i;
          separate();
          read_pending_bodies();
          break;
        case ';': read_semicolon(); break;
        case '&':
          if (peek(1) == '>') {
            read_redirect(std::nullopt);
          } else {
            m_i += peek(1) == '&' ? 2 : 1;
            separate();
          }
          break;
        case '|':
          if (peek(1) == '|') {
            m_i += 2;
            separate();
          } else {
            m_i += peek(1) == '&' ? 2 : 1;
            finish_command();  // the same pipeline goes on
          }
          break;
        case '(': read_open_paren(); break;
        case ')':
          ++m_i;
          finish_command();
          break;
        case '<':
        case '>': read_redirect(std::nullopt); break;
        case '#':
          while (!at_end() && peek() != '\n') ++m_i;
          break;
        default: read_argument();
      }
    }
  }

  void separate() {
    finish_command();
    new_pipeline();
    if (m_expect == Expect::for_words || m_expect == Expect::for_in) m_expect = Expect::command;
  }

  void read_semicolon() {
    if (peek(1) == ';' || peek(1) == '&') {  // ;; ;& ;;& end a case item
      m_i += (peek(1) == ';' && peek(2) == '&') ? 3 : 2;
      separate();
      m_expect_pattern = m_cases > 0;
      return;
    }
    ++m_i;
    separate();
  }

  /// `f()` defines a function (its body is read as commands); otherwise a subshell.
  void read_open_paren() {
    std::size_t after = m_i + 1;
    while (after < m_text.size() && is_blank(m_text[after])) ++after;
    if (m_building.command.argv.size() == 1 && after < m_text.size() && m_text[after] == ')') {
      m_building.command.argv.clear();
      m_i = after + 1;
      return;
    }
    ++m_i;
    finish_command();
    if (peek() == '(') {
      ++m_i;
      return read_arithmetic();
    }
    nested(')');
  }

  /// A nested list (subshell, `$(...)`, `<(...)`) read in place, the command around it kept aside.
  void nested(char end) {
    if (++m_shared.depth > k_max_depth) return stop();
    Building saved = std::move(m_building);
    const Expect expect = m_expect;
    const bool pattern = m_expect_pattern;
    const int cases = m_cases;
    m_expect = Expect::command;
    m_expect_pattern = false;
    m_cases = 0;
    begin_command();
    parse_list(end);
    finish_command();
    m_building = std::move(saved);
    m_expect = expect;
    m_expect_pattern = pattern;
    m_cases = cases;
    --m_shared.depth;
  }

  /// A separate text (backticks, eval, a body) parsed as a script.
  void sub_script(const std::string& text) {
    if (++m_shared.depth > k_max_depth) return stop();
    PartsParser(text, m_shared).parse_script();
    --m_shared.depth;
  }

  void stop() {
    m_shared.stopped = true;
    m_shared.out.complete = false;
    m_i = m_text.size();
  }

  /// A case item's patterns up to their `)` (or the case's `esac`): nothing there runs but substitutions.
  void skip_case_pattern() {
    const std::size_t at = m_i;
    Word word = read_word();
    m_expect_pattern = false;
    if (!word.quoted && word.value == "esac") {
      --m_cases;
      return;
    }
    m_i = at;
    if (peek() == '(') ++m_i;
    while (!at_end() && !m_shared.stopped && peek() != ')') {
      const char c = peek();
      if (c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`') read_word_piece(c);
      else ++m_i;
    }
    if (!at_end()) ++m_i;
  }

  /// `((...))` and `$((...))` after their opening: arithmetic, where `<<` is a shift, not a
  /// here-document; only its substitutions run commands.
  void read_arithmetic() {
    int open = 2;
    while (!at_end() && !m_shared.stopped && open > 0) {
      const char c = peek();
      if (c == '(') ++open;
      if (c == ')') --open;
      if (c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`') read_word_piece(c);
      else ++m_i;
    }
  }

  void read_argument() {
    const bool started = m_building.started;
    mark_start();
    Word word = read_word();
    m_building.end = m_i;
    if (!word.quoted && all_digits(word.value) && (peek() == '<' || peek() == '>') && word.value.size() <= 4) {
      return read_redirect(std::stoi(word.value));
    }
    if (m_building.command.argv.empty() && take_keyword(word)) {
      m_building.started = started;  // a keyword is not part of the command's text
      return;
    }
    if (m_building.command.argv.empty() && assignment_prefix(word.raw) > 0) {
      m_building.command.assignments.push_back(std::move(word.value));
      return;
    }
    m_building.command.argv.push_back(std::move(word.value));
  }

  /// Keywords in the command position; true when the word was one (or one that a keyword skips).
  bool take_keyword(const Word& word) {
    const bool plain = !word.quoted;
    switch (m_expect) {
      case Expect::case_subject: m_expect = Expect::case_in; return true;
      case Expect::case_in:
        m_expect = Expect::command;
        if (plain && word.value == "in") {
          ++m_cases;
          m_expect_pattern = true;
          return true;
        }
        break;
      case Expect::for_name: m_expect = Expect::for_in; return true;
      case Expect::for_in:
        m_expect = Expect::command;
        if (plain && word.value == "in") {
          m_expect = Expect::for_words;
          return true;
        }
        break;
      case Expect::for_words: return true;
      case Expect::function_name: m_expect = Expect::command; return true;
      case Expect::command: break;
    }
    if (!plain) return false;
    if (word.value == "case") m_expect = Expect::case_subject;
    else if (word.value == "for" || word.value == "select") m_expect = Expect::for_name;
    else if (word.value == "function") m_expect = Expect::function_name;
    else return is_dropped_keyword(word.value);
    return true;
  }

  void read_redirect(std::optional<int> fd) {
    mark_start();
    const char c = peek();
    const char next = peek(1);
    ShellRedirect redirect;
    redirect.fd = fd.value_or(c == '<' ? 0 : 1);
    if ((c == '<' || c == '>') && next == '(') {
      m_i += 2;
      nested(')');
      m_building.command.argv.push_back(std::string{c} + "(...)");
      m_building.end = m_i;
      return;
    }
    if (c == '<' && next == '<') return read_here(peek(2) == '<');
    if (c == '&') {
      m_i += 2;
      redirect.op = ">";
      if (peek() == '>') {
        ++m_i;
        redirect.op = ">>";
      }
    } else if (next == '&') {
      m_i += 2;
      redirect.op = ">&";
    } else if (c == '>' && next == '>') {
      m_i += 2;
      redirect.op = ">>";
    } else {
      m_i += (next == '|' || (c == '<' && next == '>')) ? 2 : 1;
      redirect.op = (c == '<' && next != '>') ? "<" : ">";
    }
    skip_blanks();
    Word target = read_word();
    m_building.end = m_i;
    if (target.value.empty() || (redirect.op == ">&" && target.value == "-")) return;
    if (redirect.op == ">&" && (target.quoted || !all_digits(target.value))) redirect.op = ">";
    redirect.target = std::move(target.value);
    m_building.command.redirects.push_back(std::move(redirect));
  }

  /// `<<DELIM`, `<<-DELIM` (the body comes after the next line break) or `<<< word`.
  void read_here(bool here_string) {
    m_i += here_string ? 3 : 2;
    const bool strip_tabs = !here_string && peek() == '-';
    if (strip_tabs) ++m_i;
    skip_blanks();
    Word word = read_word();
    m_building.end = m_i;
    if (here_string) {
      m_shared.bodies.push_back(Body{m_building.id, word.value, false});
    } else {
      m_pending.push_back(PendingBody{m_building.id, word.value, strip_tabs, !word.quoted});
    }
  }

  void read_pending_bodies() {
    for (const PendingBody& pending : m_pending) {
      Body body{pending.owner, "", pending.expands};
      while (!at_end()) {
        std::size_t end = m_text.find('\n', m_i);
        if (end == std::string_view::npos) end = m_text.size();
        std::string_view line = m_text.substr(m_i, end - m_i);
        m_i = std::min(end + 1, m_text.size());
        if (pending.strip_tabs) line.remove_prefix(std::min(line.find_first_not_of('\t'), line.size()));
        if (line == pending.delimiter) break;
        body.text.append(line);
        body.text += '\n';
      }
      m_shared.bodies.push_back(std::move(body));
    }
    m_pending.clear();
  }

  void finish_command() {
    SimpleCommand& command = m_building.command;
    if (command.argv.empty() && command.redirects.empty() && command.assignments.empty()) {
      begin_command_keeping_start();
      return;
    }
    if (m_shared.out.commands.size() >= k_max_parts) return stop();
    std::string_view text = m_text.substr(m_building.start, m_building.end - m_building.start);
    while (!text.empty() && (is_blank(text.back()) || text.back() == '\n')) text.remove_suffix(1);
    command.text = std::string(text);
    command.folder = m_shared.folder;
    follow_cd(command);
    std::vector<std::string> eval_words;
    if (!command.argv.empty() && command.argv[0] == "eval")
      eval_words.assign(command.argv.begin() + 1, command.argv.end());
    m_shared.index_of[m_building.id] = m_shared.out.commands.size();
    m_shared.pipeline_of.push_back(m_shared.next_pipeline);
    m_shared.out.commands.push_back(std::move(command));
    begin_command();
    if (!eval_words.empty()) {
      std::string script;
      for (const std::string& word : eval_words) script += (script.empty() ? "" : " ") + word;
      sub_script(script);
    }
  }

  void begin_command_keeping_start() {
    const std::size_t id = m_building.id;
    m_building = Building{};
    m_building.id = id;
  }

  /// `cd DIR` and `pushd DIR`: later relative paths are also checked from DIR.
  void follow_cd(const SimpleCommand& command) {
    if (command.argv.size() < 2 || (command.argv[0] != "cd" && command.argv[0] != "pushd")) return;
    const std::string& target = command.argv.back();
    if (target.empty() || target[0] == '-' || target.find_first_of("$`*?[~") != std::string::npos) return;
    if (target[0] == '/' || m_shared.folder.empty()) m_shared.folder = target;
    else m_shared.folder += "/" + target;
  }

  Word read_word() {
    Word word;
    while (!at_end() && !m_shared.stopped) {
      const char c = peek();
      if (c == '(' && assignment_prefix(word.raw) == word.raw.size() && !word.raw.empty()) {
        read_array(word);
        continue;
      }
      if (ends_word(c)) break;
      Word piece = read_word_piece(c);
      word.value += piece.value;
      word.raw += piece.raw;
      word.quoted = word.quoted || piece.quoted;
    }
    return word;
  }

  /// One quoted string, escape, substitution or plain character of a word.
  Word read_word_piece(char c) {
    Word piece;
    const std::size_t at = m_i;
    if (c == '\'') {
      std::size_t close = m_text.find('\'', m_i + 1);
      if (close == std::string_view::npos) close = m_text.size();
      piece.value = std::string(m_text.substr(m_i + 1, close - m_i - 1));
      m_i = std::min(close + 1, m_text.size());
      piece.quoted = true;
    } else if (c == '"') {
      ++m_i;
      read_double_quoted(piece);
      piece.quoted = true;
    } else if (c == '\\') {
      if (peek(1) != '\n' && m_i + 1 < m_text.size()) piece.value += peek(1);
      piece.quoted = peek(1) != '\n';
      m_i = std::min(m_i + 2, m_text.size());
    } else if (c == '$') {
      read_dollar(piece);
    } else if (c == '`') {
      read_backtick(piece);
    } else {
      piece.value += c;
      ++m_i;
    }
    piece.raw = std::string(m_text.substr(at, m_i - at));
    return piece;
  }

  void read_double_quoted(Word& word) {
    while (!at_end() && peek() != '"') {
      const char c = peek();
      if (c == '\\' && (peek(1) == '$' || peek(1) == '`' || peek(1) == '"' || peek(1) == '\\')) {
        word.value += peek(1);
        m_i += 2;
      } else if (c == '\\' && peek(1) == '\n') {
        m_i += 2;
      } else if (c == '$') {
        read_dollar(word);
      } else if (c == '`') {
        read_backtick(word);
      } else {
        word.value += c;
        ++m_i;
      }
    }
    if (!at_end()) ++m_i;
  }

  /// `$(...)`, `$((...))`, `${...}`, `$'...'`, `$"..."`, `$NAME` and the special parameters.
  void read_dollar(Word& word) {
    const std::size_t at = m_i;
    const char next = peek(1);
    if (next == '(' && peek(2) == '(') {
      m_i += 3;
      read_arithmetic();
    } else if (next == '(') {
      m_i += 2;
      nested(')');
    } else if (next == '{') {
      m_i += 2;
      read_parameter();
    } else if (next == '\'') {
      m_i += 2;
      word.value += read_ansi_c();
      return;
    } else if (next == '"') {
      m_i += 2;
      read_double_quoted(word);
      return;
    } else if (is_name_start(next)) {
      m_i += 2;
      while (!at_end() && is_name_char(peek())) ++m_i;
    } else if (next != '\0' && std::string_view("0123456789@*#?$!-").find(next) != std::string_view::npos) {
      m_i += 2;
    } else {
      ++m_i;
    }
    word.value += std::string(m_text.substr(at, m_i - at));
  }

  /// The inside of `${...}` up to its brace: only its substitutions matter.
  void read_parameter() {
    while (!at_end() && !m_shared.stopped) {
      const char c = peek();
      if (c == '}') {
        ++m_i;
        return;
      }
      if (c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`') {
        read_word_piece(c);
      } else {
        ++m_i;
      }
    }
  }

  /// `$'...'` after its opening quote: the escapes decoded as bash decodes them.
  std::string read_ansi_c() {
    std::string value;
    while (!at_end() && peek() != '\'') {
      if (peek() != '\\' || m_i + 1 >= m_text.size()) {
        value += peek();
        ++m_i;
        continue;
      }
      const char e = peek(1);
      m_i += 2;
      static constexpr std::string_view k_simple = "abefnrtv\\'\"?";
      static constexpr std::string_view k_values = "\a\b\x1b\f\n\r\t\v\\'\"?";
      if (std::size_t k = k_simple.find(e); k != std::string_view::npos) value += k_values[k];
      else if (e == 'x') value += read_code(16, 2);
      else if (e >= '0' && e <= '7') {
        --m_i;
        value += read_code(8, 3);
      } else value += std::string{'\\', e};
    }
    if (!at_end()) ++m_i;
    return value;
  }

  char read_code(int base, int digits) {
    int code = 0;
    for (int n = 0; n < digits && !at_end(); ++n) {
      const char c = peek();
      int digit = is_digit(c)              ? c - '0'
                  : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                           : 99;
      if (digit >= base) break;
      code = code * base + digit;
      ++m_i;
    }
    return static_cast<char>(code);
  }

  void read_backtick(Word& word) {
    const std::size_t at = m_i++;
    std::string inner;
    while (!at_end() && peek() != '`') {
      if (peek() == '\\' && (peek(1) == '`' || peek(1) == '\\' || peek(1) == '$')) ++m_i;
      inner += peek();
      ++m_i;
    }
    if (!at_end()) ++m_i;
    sub_script(inner);
    word.value += std::string(m_text.substr(at, m_i - at));
  }

  /// `NAME=(a b c)`: the array's words, substitutions included, belong to the assignment.
  void read_array(Word& word) {
    const std::size_t at = m_i++;
    while (!at_end() && peek() != ')' && !m_shared.stopped) {
      const char c = peek();
      if (c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`') read_word_piece(c);
      else ++m_i;
    }
    if (!at_end()) ++m_i;
    word.value += std::string(m_text.substr(at, m_i - at));
    word.raw += std::string(m_text.substr(at, m_i - at));
  }

  std::string_view m_text;
  Shared& m_shared;
  std::size_t m_i = 0;
  Building m_building;
  Expect m_expect = Expect::command;
  bool m_expect_pattern = false;
  int m_cases = 0;
  std::vector<PendingBody> m_pending;
};

/// True when the body's reader, or a later command of its pipeline, names a shell.
bool read_by_a_shell(const Shared& shared, std::size_t index) {
  const std::vector<SimpleCommand>& commands = shared.out.commands;
  for (std::size_t k = 0; k < commands.size(); ++k) {
    if (k != index && shared.pipeline_of[k] != shared.pipeline_of[index]) continue;
    if (std::any_of(commands[k].argv.begin(), commands[k].argv.end(), names_a_shell)) return true;
  }
  return false;
}

void read_bodies(Shared& shared) {
  for (std::size_t b = 0; b < shared.bodies.size() && !shared.stopped; ++b) {
    const Body body = shared.bodies[b];  // parsing may add bodies
    std::optional<std::size_t> owner = shared.index_of[body.owner];
    if (body.expands) PartsParser(body.text, shared).parse_substitutions();
    if (owner && read_by_a_shell(shared, *owner)) {
      if (++shared.depth > k_max_depth) {
        shared.out.complete = false;
        return;
      }
      PartsParser(body.text, shared).parse_script();
      --shared.depth;
    }
  }
}

}  // namespace

ShellParts shell_parts(std::string_view text) {
  ShellParts parts;
  Shared shared{parts, {}, {}, {}, 0, 0, false, ""};
  PartsParser(text, shared).parse_script();
  read_bodies(shared);
  return parts;
}

}  // namespace agent_run
