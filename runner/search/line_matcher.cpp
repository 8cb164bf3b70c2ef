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

}  // namespace

struct LineMatcher::Compiled {
  std::unique_ptr<RE2> re;
  std::string literal;                             // a plain literal pattern, matched exactly...
  std::optional<CaselessFinder> caseless_literal;  // ...or without regard to case
  re2::FilteredRE2 filter{k_min_atom_length};
  std::vector<CaselessFinder> atoms;  // the prefilter's atoms (only when all are ASCII)
  bool single_required_atom = false;  // every matching line holds atoms[0]

  std::optional<std::size_t> regex_match(std::string_view content, std::size_t from, std::size_t to) const {
    re2::StringPiece whole(content.data(), content.size());
    re2::StringPiece match;
    if (!re->Match(whole, from, to, RE2::UNANCHORED, &match, 1)) return std::nullopt;
    return static_cast<std::size_t>(match.data() - content.data());
  }

  std::optional<std::size_t> literal_match(std::string_view content, std::size_t from) const {
    if (caseless_literal) {
      std::size_t at = caseless_literal->find(content, from);
      return at == std::string_view::npos ? std::nullopt : std::optional<std::size_t>(at);
    }
    const void* found = ::memmem(content.data() + from, content.size() - from, literal.data(), literal.size());
    if (found == nullptr) return std::nullopt;
    return static_cast<std::size_t>(static_cast<const char*>(found) - content.data());
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
  if (!text.empty() && text.find_first_of("\\.+*?()|[]{}^$") == std::string::npos &&
      (!case_insensitive || ascii_foldable(text))) {
    compiled->literal = text;
    if (case_insensitive) compiled->caseless_literal.emplace(text);
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

std::optional<std::pair<std::size_t, std::size_t>> LineMatcher::next_line(std::string_view content,
                                                                          std::size_t from) const {
  const Compiled& c = *m_compiled;
  if (from > content.size()) return std::nullopt;
  if (c.single_required_atom) {
    // Only a line holding the atom can match: RE2 looks at those lines alone.
    for (std::size_t at; (at = c.atoms[0].find(content, from)) != std::string_view::npos;) {
      auto line = line_around(content, at);
      if (c.regex_match(content, line.first, line.second)) return line;
      from = line.second + 1;
      if (from > content.size()) break;
    }
    return std::nullopt;
  }
  std::optional<std::size_t> at =
      c.literal.empty() ? c.regex_match(content, from, content.size()) : c.literal_match(content, from);
  if (!at) return std::nullopt;
  if (*at == content.size() && (content.empty() || content.back() == '\n')) return std::nullopt;  // past the last line
  return line_around(content, *at);
}

}  // namespace agent_run
