// PartsParser's redirections, process substitutions and here-documents.
#include "policy/parts_parser.h"

#include "policy/parts_lexicon.h"

#include <algorithm>
#include <utility>

namespace agent_run::parts {

void PartsParser::read_redirect(std::optional<int> fd) {
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
void PartsParser::read_here(bool here_string) {
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

void PartsParser::read_pending_bodies() {
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

}  // namespace agent_run::parts
