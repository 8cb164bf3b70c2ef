#include "search/ignore_rules.h"

namespace agent_run {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string_view trim_end(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r' || line.back() == '\v' ||
                           line.back() == '\f')) {
    line.remove_suffix(1);
  }
  return line;
}

}  // namespace

IgnoreRules IgnoreRules::from_gitignore(std::string_view text) {
  IgnoreRules rules;
  std::size_t start = 0;
  bool first_line = true;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (first_line && starts_with(line, "\xEF\xBB\xBF")) line.remove_prefix(3);  // a BOM, as git allows
    first_line = false;
    (void)rules.add_line(line);  // an invalid glob is skipped; the rest of the file still applies
    start = end + 1;
  }
  return rules;
}

Expected<IgnoreRules> IgnoreRules::from_overrides(const std::vector<std::string>& globs) {
  IgnoreRules rules;
  rules.m_overrides = true;
  for (const std::string& glob : globs) {
    AR_TRY(rules.add_line(glob));
  }
  return rules;
}

Expected<void> IgnoreRules::add_line(std::string_view line) {
  if (starts_with(line, "#")) return {};
  if (!ends_with(line, "\\ ")) line = trim_end(line);
  if (line.empty()) return {};
  bool negated = false;
  bool anchored = false;
  if (starts_with(line, "\\!") || starts_with(line, "\\#")) {
    line.remove_prefix(1);
    anchored = starts_with(line, "/");
  } else {
    if (starts_with(line, "!")) {
      negated = true;
      line.remove_prefix(1);
    }
    if (starts_with(line, "/")) {
      line.remove_prefix(1);
      anchored = true;
    }
  }
  bool folders_only = false;
  if (ends_with(line, "/")) {
    folders_only = true;
    line.remove_suffix(1);
  }
  std::string actual(line);
  if (!anchored && actual.find('/') == std::string::npos && !starts_with(actual, "**/") && actual != "**") {
    actual = "**/" + actual;
  }
  if (ends_with(actual, "/**")) actual += "/*";
  auto glob = GlobPattern::compile(actual);
  if (!glob) {
    auto as_written = GlobPattern::compile(line);  // the same error, naming the glob as it was written
    return as_written ? glob.error() : as_written.error();
  }
  m_rules.push_back(Rule{std::move(*glob), negated, folders_only});
  // In overrides a plain glob includes; a `!glob` excludes.
  if (m_overrides && !negated) m_any_include = true;
  return {};
}

IgnoreMatch IgnoreRules::match_rules(std::string_view path, EntryKind kind) const {
  for (auto rule = m_rules.rbegin(); rule != m_rules.rend(); ++rule) {
    if (rule->folders_only && kind != EntryKind::folder) continue;
    if (rule->glob.matches(path)) return rule->negated ? IgnoreMatch::include : IgnoreMatch::ignore;
  }
  return IgnoreMatch::none;
}

IgnoreMatch IgnoreRules::match(std::string_view path, EntryKind kind) const {
  if (m_rules.empty()) return IgnoreMatch::none;
  IgnoreMatch found = match_rules(path, kind);
  if (!m_overrides) return found;
  if (found == IgnoreMatch::ignore) return IgnoreMatch::include;
  if (found == IgnoreMatch::include) return IgnoreMatch::ignore;
  if (m_any_include && kind == EntryKind::file) return IgnoreMatch::ignore;
  return IgnoreMatch::none;
}

}  // namespace agent_run
