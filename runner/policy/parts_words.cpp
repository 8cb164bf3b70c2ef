// PartsParser's words: quote removal, `$'...'` decoding, and the substitutions inside words.
#include "policy/parts_parser.h"

#include "policy/parts_lexicon.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace agent_run::parts {

/// Only the substitutions of a text that is data (an unquoted here-document body).
void PartsParser::parse_substitutions() {
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

Word PartsParser::read_word() {
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
Word PartsParser::read_word_piece(char c) {
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

void PartsParser::read_double_quoted(Word& word) {
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
void PartsParser::read_dollar(Word& word) {
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
void PartsParser::read_parameter() {
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
std::string PartsParser::read_ansi_c() {
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

char PartsParser::read_code(int base, int digits) {
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

void PartsParser::read_backtick(Word& word) {
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
void PartsParser::read_array(Word& word) {
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

}  // namespace agent_run::parts
