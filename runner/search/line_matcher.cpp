#include "search/line_matcher.h"

#include "search/caseless_finder.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace agent_run {

namespace {

constexpr int k_min_atom_length = 3;

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

/// The line around byte `at`: [start, end) without its "\n".
std::pair<std::size_t, std::size_t> line_around(std::string_view content, std::size_t at) {
  std::size_t start = at == 0 ? 0 : content.rfind('\n', at - 1) + 1;
  std::size_t end = content.find('\n', at);
  return {start, end == std::string_view::npos ? content.size() : end};
}

/// The alternatives of a pattern made of plain literals only (`a`, `TODO|FIXME`); empty when it is not one.
std::vector<std::string> literal_set(const std::string& text) {
  if (text.empty() || text.find_first_of("\\.+*?()[]{}^$") != std::string::npos) return {};
  std::vector<std::string> literals;
  for (std::size_t start = 0;;) {
    const std::size_t bar = text.find('|', start);
    literals.push_back(text.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (literals.back().empty()) return {};  // an empty alternative matches every line: RE2 handles that
    if (bar == std::string::npos) return literals;
    start = bar + 1;
  }
}

}  // namespace

struct LineMatcher::Compiled {
  std::unique_ptr<RE2> re;
  std::vector<CaselessFinder> literals;  // a literal pattern or a set of them (exact or ASCII-blind)
  re2::FilteredRE2 filter{k_min_atom_length};
  std::vector<CaselessFinder> atoms;  // the prefilter's atoms (only when all are ASCII)
  bool single_required_atom = false;  // every matching line holds atoms[0]

  std::optional<std::size_t> regex_match(std::string_view content, std::size_t from, std::size_t to) const {
    re2::StringPiece whole(content.data(), content.size());
    re2::StringPiece match;
    if (!re->Match(whole, from, to, RE2::UNANCHORED, &match, 1)) return std::nullopt;
    return static_cast<std::size_t>(match.data() - content.data());
  }

  /// Whether [from, to) holds a match: no submatch asked for, so RE2 stops at the first match it sees
  /// instead of running again backwards to find where it starts.
  bool regex_matches(std::string_view content, std::size_t from, std::size_t to) const {
    re2::StringPiece whole(content.data(), content.size());
    return re->Match(whole, from, to, RE2::UNANCHORED, nullptr, 0);
  }

  /// Where literal `i` first occurs in `content` at or after `from`, or npos.
  std::size_t find_literal(std::size_t i, std::string_view content, std::size_t from) const {
    return literals[i].find(content, from);
  }
};

Expected<LineMatcher> LineMatcher::compile(const GrepPatterns& patterns, bool case_insensitive) {
  auto compiled = std::make_shared<Compiled>();
  RE2::Options options;
  options.set_log_errors(false);
  options.set_never_nl(true);
  options.set_case_sensitive(!case_insensitive);
  options.set_max_mem(256 << 20);
  compiled->re = std::make_unique<RE2>("(?m)" + patterns.for_re2, options);
  if (!compiled->re->ok()) return make_error(compiled->re->error());
  // Unicode folds 'k' and 's' with non-ASCII letters (KELVIN SIGN, LONG S), which ASCII folding misses.
  const bool may_fold = case_insensitive || patterns.for_re2.find("(?") != std::string::npos;
  auto ascii_foldable = [&](std::string_view text) {
    return is_ascii(text) && (!may_fold || text.find_first_of("ksKS") == std::string_view::npos);
  };
  const std::string& text = patterns.for_re2;
  std::vector<std::string> literals = literal_set(text);
  if (!literals.empty() && (!case_insensitive || std::all_of(literals.begin(), literals.end(), ascii_foldable))) {
    for (const std::string& literal : literals) {
      compiled->literals.emplace_back(literal, case_insensitive ? FinderCase::ascii_blind : FinderCase::exact);
    }
  } else {
    int id = 0;
    std::vector<std::string> atoms;
    if (compiled->filter.Add("(?m)" + text, options, &id) == RE2::NoError) compiled->filter.Compile(&atoms);
    if (!atoms.empty() && std::all_of(atoms.begin(), atoms.end(), ascii_foldable)) {
      for (const std::string& atom : atoms) compiled->atoms.emplace_back(atom);
      std::vector<int> none;
      std::vector<int> potential;
      compiled->filter.AllPotentials(none, &potential);
      compiled->single_required_atom = atoms.size() == 1 && potential.empty();
    }
  }
  LineMatcher matcher;
  matcher.m_compiled = std::move(compiled);
  return matcher;
}

bool LineMatcher::may_match(std::string_view content) const {
  const Compiled& c = *m_compiled;
  if (c.atoms.empty()) return true;
  std::vector<int> found;
  for (std::size_t i = 0; i < c.atoms.size(); ++i) {
    if (c.atoms[i].find(content, 0) != std::string_view::npos) found.push_back(static_cast<int>(i));
  }
  std::vector<int> potential;
  c.filter.AllPotentials(found, &potential);
  return !potential.empty();
}

LineMatcher::Scan::Scan(const LineMatcher& matcher, std::string_view content)
    : m_compiled(*matcher.m_compiled), m_content(content), m_next(m_compiled.literals.size(), 0) {}

std::optional<std::pair<std::size_t, std::size_t>> LineMatcher::Scan::next_line(std::size_t from) {
  const Compiled& c = m_compiled;
  const std::string_view content = m_content;
  if (from > content.size()) return std::nullopt;
  if (c.single_required_atom) {
    // Only a line holding the atom can match: RE2 looks at those lines alone.
    for (std::size_t at; (at = c.atoms[0].find(content, from)) != std::string_view::npos;) {
      auto line = line_around(content, at);
      if (c.regex_matches(content, line.first, line.second)) return line;
      from = line.second + 1;
      if (from > content.size()) break;
    }
    return std::nullopt;
  }
  std::optional<std::size_t> at =
      c.literals.empty() ? c.regex_match(content, from, content.size()) : literal_match(from);
  if (!at) return std::nullopt;
  if (*at == content.size() && (content.empty() || content.back() == '\n')) return std::nullopt;  // past the last line
  return line_around(content, *at);
}

std::optional<std::size_t> LineMatcher::Scan::literal_match(std::size_t from) {
  std::size_t first = std::string_view::npos;
  for (std::size_t i = 0; i < m_next.size(); ++i) {
    if (!m_started || (m_next[i] != std::string_view::npos && m_next[i] < from))
      m_next[i] = m_compiled.find_literal(i, m_content, from);
    first = std::min(first, m_next[i]);
  }
  m_started = true;
  if (first == std::string_view::npos) return std::nullopt;
  return first;
}

}  // namespace agent_run
