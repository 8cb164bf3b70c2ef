#include "search/grep_search.h"

#include <re2/re2.h>

#include <cstring>

namespace agent_run {

namespace {

/// Replacements for the Perl classes: outside a bracket class, and inside one.
struct ClassRewrite {
  char escape;
  const char* outside;
  const char* inside;
};

constexpr ClassRewrite k_class_rewrites[] = {
    {'w', "[[:word:]]", "[:word:]"},     {'W', "[^[:word:]]", "[:^word:]"}, {'d', "[[:digit:]]", "[:digit:]"},
    {'D', "[^[:digit:]]", "[:^digit:]"}, {'s', "[[:space:]]", "[:space:]"}, {'S', "[^[:space:]]", "[:^space:]"},
};

/// Walks a pattern once, keeping track of bracket classes, and writes both engines' versions.
class PatternRewriter {
 public:
  explicit PatternRewriter(const std::string& pattern) : m_pattern(pattern) {}

  Expected<GrepPatterns> rewrite() {
    while (m_at < m_pattern.size()) {
      char c = m_pattern[m_at];
      if (c == '\n') return make_error("the pattern contains a line break; grep matches one line at a time");
      if (c == '\\') {
        AR_TRY(rewrite_escape());
      } else if (c == '[') {
        open_bracket();
      } else {
        if (c == ']' && m_in_class) m_in_class = false;
        both(std::string(1, c));
        ++m_at;
      }
    }
    return m_out;
  }

 private:
  Expected<void> rewrite_escape() {
    if (m_at + 1 >= m_pattern.size()) {
      both("\\");
      ++m_at;
      return {};
    }
    char d = m_pattern[m_at + 1];
    m_at += 2;
    if (d == 'n') return make_error("the pattern contains \\n (a line break); grep matches one line at a time");
    if (d == 'Q' || d == 'C')
      return make_error("\\" + std::string(1, d) +
                        " is not supported; escape each special character with a backslash instead");
    for (const ClassRewrite& rewrite : k_class_rewrites) {
      if (rewrite.escape == d) {
        both(m_in_class ? rewrite.inside : rewrite.outside);
        return {};
      }
    }
    if ((d == 'b' || d == 'B') && !m_in_class) {
      m_out.for_ripgrep += std::string("(?-u:\\") + d + ")";
      m_out.for_re2 += std::string("\\") + d;
      return {};
    }
    both(std::string("\\") + d);
    return {};
  }

  void open_bracket() {
    if (m_in_class) {
      // A POSIX class inside a bracket class: copied whole, so its ']' does not close the class.
      std::size_t end = m_pattern.compare(m_at, 2, "[:") == 0 ? m_pattern.find(":]", m_at + 2) : std::string::npos;
      std::size_t length = end == std::string::npos ? 1 : end + 2 - m_at;
      both(m_pattern.substr(m_at, length));
      m_at += length;
      return;
    }
    m_in_class = true;
    both("[");
    ++m_at;
    if (m_at < m_pattern.size() && m_pattern[m_at] == '^') {
      both("^");
      ++m_at;
    }
    if (m_at < m_pattern.size() && m_pattern[m_at] == ']') {  // a ']' first in a class is a literal
      both("]");
      ++m_at;
    }
  }

  void both(const std::string& text) {
    m_out.for_ripgrep += text;
    m_out.for_re2 += text;
  }

  const std::string& m_pattern;
  std::size_t m_at = 0;
  bool m_in_class = false;
  GrepPatterns m_out;
};

}  // namespace

Expected<GrepPatterns> prepare_patterns(const std::string& pattern, bool case_insensitive) {
  auto patterns = PatternRewriter(pattern).rewrite();
  if (!patterns) return patterns.error();
  RE2::Options options;
  options.set_log_errors(false);
  options.set_never_nl(true);
  options.set_case_sensitive(!case_insensitive);
  RE2 check(patterns->for_re2, options);
  if (!check.ok()) {
    return make_error("invalid pattern '" + pattern + "': " + check.error());
  }
  return patterns;
}

bool is_binary_content(std::string_view content) {
  return std::memchr(content.data(), '\0', content.size()) != nullptr;
}

}  // namespace agent_run
