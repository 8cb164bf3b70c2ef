#include "policy/shell_parser.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

namespace agent_run {

namespace {

/// The decoded code point at `i` and its length in bytes; length 0 for invalid UTF-8.
struct CodePoint {
  std::uint32_t value = 0;
  std::size_t length = 0;
};

CodePoint decode_utf8(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return {lead, 1};
  std::size_t length = 0;
  std::uint32_t minimum = 0;
  std::uint32_t value = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    minimum = 0x80;
    value = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    minimum = 0x800;
    value = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    minimum = 0x10000;
    value = lead & 0x07;
  } else return {};
  if (i + length > text.size()) return {};
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return {};
    value = (value << 6) | (byte(i + k) & 0x3F);
  }
  if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return {};
  return {value, length};
}

/// Characters that render as nothing or as a space, or reorder text: they can hide part of a
/// command from whoever reads it.
bool is_invisible_or_bidi(std::uint32_t c) {
  struct Range {
    std::uint32_t first, last;
  };
  static constexpr std::array<Range, 22> k_ranges = {{
      {0x80, 0xA0},       {0xAD, 0xAD},       {0x34F, 0x34F},      {0x61C, 0x61C},   {0x115F, 0x1160}, {0x1680, 0x1680},
      {0x17B4, 0x17B5},   {0x180B, 0x180E},   {0x2000, 0x200F},    {0x2028, 0x202F}, {0x205F, 0x206F}, {0x2800, 0x2800},
      {0x3000, 0x3000},   {0x3164, 0x3164},   {0xFE00, 0xFE0F},    {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFFB},
      {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF}, {0xF0000, 0x10FFFF}, {0xE000, 0xF8FF},
  }};
  return std::any_of(k_ranges.begin(), k_ranges.end(), [c](Range r) { return c >= r.first && c <= r.last; });
}

std::string hex_code(std::uint32_t c) {
  static constexpr char k_digits[] = "0123456789ABCDEF";
  std::string hex;
  for (int shift = c > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4) hex += k_digits[(c >> shift) & 0xF];
  return "U+" + hex;
}

}  // namespace

std::optional<TextProblem> shell_text_problem(std::string_view text, std::size_t max_bytes) {
  if (text.size() > max_bytes) {
    return TextProblem{max_bytes, "the command is " + std::to_string(text.size()) + " bytes long, over the limit of " +
                                      std::to_string(max_bytes)};
  }
  for (std::size_t i = 0; i < text.size();) {
    CodePoint c = decode_utf8(text, i);
    if (c.length == 0) return TextProblem{i, "invalid UTF-8"};
    if ((c.value < 0x20 && c.value != '\t' && c.value != '\n') || c.value == 0x7F) {
      return TextProblem{i, "control character " + hex_code(c.value)};
    }
    if (is_invisible_or_bidi(c.value)) {
      return TextProblem{i, "invisible or bidirectional Unicode character " + hex_code(c.value)};
    }
    i += c.length;
  }
  return std::nullopt;
}

namespace {

bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool ends_word(char c) { return is_blank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>'; }

/// Words that are shell syntax in the command position, never a program.
bool is_reserved_word(std::string_view word) {
  static constexpr std::array<std::string_view, 22> k_words = {
      "!",    "{",    "}",    "[[",    "]]",    "if",  "then", "else",     "elif",   "fi",     "do",
      "done", "case", "esac", "while", "until", "for", "in",   "function", "select", "coproc", "time"};
  return std::find(k_words.begin(), k_words.end(), word) != k_words.end();
}

/// Builtins whose effect outlives them in the same shell: they change how later commands are
/// found, read or run (PATH, aliases, traps), or run text the parser never saw.
bool changes_the_shell(std::string_view word) {
  static constexpr std::array<std::string_view, 22> k_builtins = {
      "alias", "unalias", "export", "readonly", "local", "declare", "typeset", "unset", "read", "getopts", "source",
      ".",     "eval",    "exec",   "trap",     "set",   "shopt",   "enable",  "hash",  "let",  "command", "builtin"};
  return std::find(k_builtins.begin(), k_builtins.end(), word) != k_builtins.end() || word == "mapfile" ||
         word == "readarray";
}

bool changes_folder(std::string_view word) { return word == "cd" || word == "pushd" || word == "popd"; }

/// `NAME=` or `NAME+=` at the start of a word as written: an assignment in the command position.
bool is_assignment(std::string_view raw) {
  if (raw.empty() || !is_name_start(raw[0])) return false;
  std::size_t i = 1;
  while (i < raw.size() && is_name_char(raw[i])) ++i;
  return i < raw.size() && (raw[i] == '=' || (raw[i] == '+' && i + 1 < raw.size() && raw[i + 1] == '='));
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// One word being read: its value after quote removal and how it was written.
struct Word {
  std::string value;
  std::string raw;           // as written, without line continuations
  bool quoted = false;       // a quote or an escape was used
  bool has_content = false;  // anything but line continuations so far
  char last_plain = 0;       // the previous unquoted character, 0 after a quote
};

/// The parser: a cursor over the text that fills a ShellParse or stops at the first problem.
class ShellParser {
 public:
  ShellParser(std::string_view text, std::size_t max_bytes) : m_text(text), m_max_bytes(max_bytes) {}

  ShellParse run() {
    if (check_characters() && parse_commands()) finish();
    if (!m_result.understood()) m_result.commands.clear();
    return std::move(m_result);
  }

 private:
  bool fail(std::size_t at, std::string message) {
    if (m_result.problem.empty()) {
      m_result.problem = std::move(message);
      m_result.problem_at = at;
    }
    return false;
  }

  bool at_end() const { return m_i >= m_text.size(); }
  char peek(std::size_t ahead = 0) const { return m_i + ahead < m_text.size() ? m_text[m_i + ahead] : '\0'; }

  bool check_characters() {
    if (std::optional<TextProblem> problem = shell_text_problem(m_text, m_max_bytes)) {
      return fail(problem->at, problem->message);
    }
    return true;
  }

  bool parse_commands() {
    for (;;) {
      while (!at_end() && is_blank(peek())) ++m_i;
      if (at_end()) return true;
      const char c = peek();
      if (c == '\n') {
        ++m_i;
        if (!end_command("newline")) return false;
      } else if (c == ';' || c == '&' || c == '|') {
        if (!read_operator()) return false;
      } else if (c == '<' || c == '>') {
        if (!read_redirect(std::nullopt)) return false;
      } else if (!read_argument()) {
        return false;
      }
    }
  }

  bool read_operator() {
    const std::size_t at = m_i;
    const char c = peek();
    const char next = peek(1);
    if (c == ';') {
      if (next == ';' || next == '&') return fail(at, "'" + std::string{c, next} + "' belongs to case statements");
      ++m_i;
      return end_command(";");
    }
    if (c == '&') {
      if (next != '&') return fail(at, "running a command in the background with '&'");
      m_i += 2;
      return end_command("&&");
    }
    if (next == '&') return fail(at, "'|&' (piping standard error)");
    m_i += next == '|' ? 2 : 1;
    return end_command(next == '|' ? "||" : "|");
  }

  /// Ends the command being read at an operator or newline; empty commands are syntax errors.
  bool end_command(std::string_view op) {
    const std::size_t op_at = m_i - (op == "newline" ? 1 : op.size());
    if (m_current.argv.empty() && m_current.redirects.empty()) {
      if (op == "newline") return true;  // blank lines, and line breaks after && || |
      return fail(op_at, "'" + std::string(op) + "' with no command before it");
    }
    if (!push_command(op_at)) return false;
    m_pending = std::string(op);
    return true;
  }

  bool push_command(std::size_t end) {
    if (m_current.argv.empty()) return fail(m_command_start, "a redirection with no command");
    if (m_folder_changed) {
      return fail(m_command_start, "'cd' followed by more commands: the paths after it cannot be checked");
    }
    m_folder_changed = changes_folder(m_current.argv[0]);
    std::string_view text = m_text.substr(m_command_start, end - m_command_start);
    while (!text.empty() && (is_blank(text.back()) || text.back() == '\n')) text.remove_suffix(1);
    m_current.text = std::string(text);
    m_result.commands.push_back(std::move(m_current));
    m_current = SimpleCommand{};
    return true;
  }

  void finish() {
    if (!m_current.argv.empty() || !m_current.redirects.empty()) {
      push_command(m_text.size());
    } else if (m_pending == "&&" || m_pending == "||" || m_pending == "|") {
      fail(m_text.size(), "the command ends with '" + m_pending + "'");
    } else if (m_result.commands.empty()) {
      fail(0, "the command is empty");
    }
  }

  bool read_argument() {
    const std::size_t at = m_i;
    if (m_current.argv.empty() && m_current.redirects.empty()) m_command_start = at;
    Word word;
    if (!read_word(word)) return false;
    if ((peek() == '<' || peek() == '>') && !word.quoted && all_digits(word.value)) {
      if (word.value.size() > 4) return fail(at, "the file descriptor " + word.value + " is too large");
      return read_redirect(std::stoi(word.value));
    }
    if (m_current.argv.empty()) {
      if (is_assignment(word.raw)) return fail(at, "a leading assignment such as " + word.raw.substr(0, 40));
      if (!check_program(word.value, at)) return false;
    }
    m_current.argv.push_back(std::move(word.value));
    return true;
  }

  bool check_program(const std::string& name, std::size_t at) {
    if (is_reserved_word(name)) return fail(at, "the shell keyword '" + name + "'");
    if (changes_the_shell(name))
      return fail(at, "the builtin '" + name + "', which changes the shell for later commands");
    if (std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
      return fail(at, "a program name with non-ASCII characters");
    }
    return true;
  }

  bool read_redirect(std::optional<int> fd) {
    const std::size_t at = m_i;
    if (m_current.argv.empty() && m_current.redirects.empty() && !fd) m_command_start = at;
    const char c = peek();
    const char next = peek(1);
    ShellRedirect redirect;
    redirect.fd = fd.value_or(c == '<' ? 0 : 1);
    if (next == '(') return fail(at, "process substitution");
    if (c == '<') {
      if (next == '<') return fail(at, "a here-document or here-string");
      if (next == '&' || next == '>') return fail(at, "the redirection '<" + std::string{next} + "'");
      redirect.op = "<";
    } else if (next == '|') {
      return fail(at, "the redirection '>|'");
    } else {
      redirect.op = next == '>' ? ">>" : next == '&' ? ">&" : ">";
    }
    m_i += redirect.op.size();
    while (!at_end() && is_blank(peek())) ++m_i;
    Word target;
    const std::size_t target_at = m_i;
    if (!read_word(target)) return false;
    if (target.value.empty()) return fail(target_at, "a redirection with no target");
    if (redirect.op == ">&" && (target.quoted || !all_digits(target.value))) {
      return fail(target_at, "'>&' must name a file descriptor, as in 2>&1");
    }
    redirect.target = std::move(target.value);
    m_current.redirects.push_back(std::move(redirect));
    return true;
  }

  bool read_word(Word& word) {
    while (!at_end() && !ends_word(peek())) {
      const char c = peek();
      bool ok = c == '\''   ? read_single_quoted(word)
                : c == '"'  ? read_double_quoted(word)
                : c == '\\' ? read_escape(word)
                            : read_plain(word);
      if (!ok) return false;
    }
    return true;
  }

  bool read_single_quoted(Word& word) {
    const std::size_t close = m_text.find('\'', m_i + 1);
    if (close == std::string_view::npos) return fail(m_i, "an unterminated single quote");
    word.value.append(m_text.substr(m_i + 1, close - m_i - 1));
    word.raw.append(m_text.substr(m_i, close - m_i + 1));
    word.quoted = word.has_content = true;
    word.last_plain = 0;
    m_i = close + 1;
    return true;
  }

  bool read_double_quoted(Word& word) {
    const std::size_t open = m_i++;
    for (;;) {
      if (at_end()) return fail(open, "an unterminated double quote");
      const char c = peek();
      if (c == '"') break;
      if (c == '$') return fail(m_i, "'$' (a variable or substitution) inside double quotes");
      if (c == '`') return fail(m_i, "command substitution with backticks");
      if (c == '\\' && (peek(1) == '$' || peek(1) == '`' || peek(1) == '"' || peek(1) == '\\')) {
        word.value += peek(1);
        m_i += 2;
      } else if (c == '\\' && peek(1) == '\n') {
        m_i += 2;
      } else {
        word.value += c;
        ++m_i;
      }
    }
    ++m_i;
    word.raw.append(m_text.substr(open, m_i - open));
    word.quoted = word.has_content = true;
    word.last_plain = 0;
    return true;
  }

  bool read_escape(Word& word) {
    const char next = peek(1);
    if (next == '\n') {  // a line continuation: removed before anything else happens
      m_i += 2;
      return true;
    }
    if (m_i + 1 >= m_text.size()) return fail(m_i, "a backslash at the end of the command");
    if (static_cast<unsigned char>(next) >= 0x80) return fail(m_i, "an escaped non-ASCII character");
    word.value += next;
    word.raw.append(m_text.substr(m_i, 2));
    word.quoted = word.has_content = true;
    word.last_plain = 0;
    m_i += 2;
    return true;
  }

  bool read_plain(Word& word) {
    const char c = peek();
    if (auto problem = plain_problem(c, word)) return fail(m_i, *problem);
    word.value += c;
    word.raw += c;
    word.has_content = true;
    word.last_plain = c;
    ++m_i;
    return true;
  }

  static std::optional<std::string> plain_problem(char c, const Word& word) {
    switch (c) {
      case '$': return "'$' (a variable, substitution or $'...' quoting)";
      case '`': return "command substitution with backticks";
      case '(':
      case ')': return "'" + std::string{c} + "' (a subshell, function or arithmetic)";
      case '{':
      case '}': return "'" + std::string{c} + "' (a brace group or brace expansion); quote it";
      case '*':
      case '?':
      case '[':
      case ']': return "the unquoted glob character '" + std::string{c} + "'; quote it";
      case '!': return "the unquoted '!'; quote it";
      case '#':
        if (!word.has_content) return "a comment";
        return std::nullopt;
      case '~':
        if (!word.has_content || word.last_plain == '=' || word.last_plain == ':') return "tilde expansion; quote it";
        return std::nullopt;
      default:
        if (static_cast<unsigned char>(c) >= 0x80) return "non-ASCII characters outside quotes";
        return std::nullopt;
    }
  }

  std::string_view m_text;
  std::size_t m_max_bytes;
  std::size_t m_i = 0;
  std::size_t m_command_start = 0;
  std::string m_pending;          // the operator before the command being read
  bool m_folder_changed = false;  // the previous command was cd, pushd or popd
  SimpleCommand m_current;
  ShellParse m_result;
};

bool is_safe_unquoted(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '/' || c == ',' || c == ':' || c == '+' || c == '@' || c == '%' || c == '^';
}

}  // namespace

ShellParse parse_shell(std::string_view text, std::size_t max_bytes) { return ShellParser(text, max_bytes).run(); }

std::string quote_shell_word(std::string_view word) {
  if (!word.empty() && std::all_of(word.begin(), word.end(), is_safe_unquoted)) return std::string(word);
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace agent_run
