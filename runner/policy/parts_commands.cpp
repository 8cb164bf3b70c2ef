// PartsParser's command lists: operators, subshells and nesting, keywords, and each finished command.
#include "policy/parts_parser.h"

#include "policy/parts_lexicon.h"

#include <algorithm>
#include <utility>

namespace agent_run::parts {

/// The whole text as a command list.
void PartsParser::parse_script() {
  parse_list(0);
  finish_command();
}

void PartsParser::skip_blanks() {
  while (!at_end() && is_blank(peek())) ++m_i;
}

void PartsParser::begin_command() {
  m_building = Building{};
  m_building.id = m_shared.index_of.size();
  m_shared.index_of.emplace_back();
}

void PartsParser::mark_start() {
  if (!m_building.started) {
    m_building.start = m_i;
    m_building.started = true;
  }
}

void PartsParser::parse_list(char end) {
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

void PartsParser::separate() {
  finish_command();
  new_pipeline();
  if (m_expect == Expect::for_words || m_expect == Expect::for_in) m_expect = Expect::command;
}

void PartsParser::read_semicolon() {
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
void PartsParser::read_open_paren() {
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
void PartsParser::nested(char end) {
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
void PartsParser::sub_script(const std::string& text) {
  if (++m_shared.depth > k_max_depth) return stop();
  PartsParser(text, m_shared).parse_script();
  --m_shared.depth;
}

void PartsParser::stop() {
  m_shared.stopped = true;
  m_shared.out.complete = false;
  m_i = m_text.size();
}

/// A case item's patterns up to their `)` (or the case's `esac`): nothing there runs but substitutions.
void PartsParser::skip_case_pattern() {
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
void PartsParser::read_arithmetic() {
  int open = 2;
  while (!at_end() && !m_shared.stopped && open > 0) {
    const char c = peek();
    if (c == '(') ++open;
    if (c == ')') --open;
    if (c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`') read_word_piece(c);
    else ++m_i;
  }
}

void PartsParser::read_argument() {
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
bool PartsParser::take_keyword(const Word& word) {
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

void PartsParser::finish_command() {
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

void PartsParser::begin_command_keeping_start() {
  const std::size_t id = m_building.id;
  m_building = Building{};
  m_building.id = id;
}

/// `cd DIR` and `pushd DIR`: later relative paths are also checked from DIR.
void PartsParser::follow_cd(const SimpleCommand& command) {
  if (command.argv.size() < 2 || (command.argv[0] != "cd" && command.argv[0] != "pushd")) return;
  const std::string& target = command.argv.back();
  if (target.empty() || target[0] == '-' || target.find_first_of("$`*?[~") != std::string::npos) return;
  if (target[0] == '/' || m_shared.folder.empty()) m_shared.folder = target;
  else m_shared.folder += "/" + target;
}

}  // namespace agent_run::parts
