#include "policy/regex_pattern.h"

#include <re2/re2.h>

namespace agent_run {

namespace {

constexpr std::size_t k_max_pattern_bytes = 1000;
constexpr std::int64_t k_max_regex_memory = 1 << 20;  // per pattern; RE2 fails to compile beyond it

}  // namespace

struct RegexPattern::Compiled {
  explicit Compiled(const std::string& pattern, const RE2::Options& options) : re2(pattern, options) {}
  RE2 re2;
};

Expected<RegexPattern> RegexPattern::compile(const std::string& pattern) {
  if (pattern.size() > k_max_pattern_bytes) {
    return make_error("the regular expression is " + std::to_string(pattern.size()) +
                      " bytes long, over the limit of " + std::to_string(k_max_pattern_bytes));
  }
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(k_max_regex_memory);
  options.set_encoding(RE2::Options::EncodingUTF8);
  auto compiled = std::make_shared<const Compiled>(pattern, options);
  if (!compiled->re2.ok()) {
    return make_error("invalid regular expression '" + pattern + "': " + compiled->re2.error());
  }
  RegexPattern result;
  result.m_compiled = std::move(compiled);
  result.m_text = pattern;
  return result;
}

bool RegexPattern::full_match(std::string_view text) const {
  return m_compiled && RE2::FullMatch(re2::StringPiece(text.data(), text.size()), m_compiled->re2);
}

}  // namespace agent_run
