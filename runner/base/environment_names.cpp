#include "base/environment_names.h"

#include "base/text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace agent_run {

namespace {

/// `scheme://user:password@host...`: a URL that carries a password.
bool holds_url_password(std::string_view value) {
  for (std::size_t scheme = value.find("://"); scheme != std::string_view::npos;
       scheme = value.find("://", scheme + 3)) {
    std::string_view rest = value.substr(scheme + 3);
    std::string_view authority = rest.substr(0, rest.find_first_of("/?# "));
    std::size_t at = authority.rfind('@');
    if (at != std::string_view::npos && authority.substr(0, at).find(':') != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

bool looks_secret(std::string_view name, std::string_view value) {
  static constexpr std::array<std::string_view, 12> k_markers = {"key",    "token",   "secret",  "pass",
                                                                  "jwt",    "webhook", "credential", "auth",
                                                                  "cookie", "session", "private", "dsn"};
  // Whole words of a name only: PAT in GH_PAT, PWD in MYSQL_PWD (but PWD itself, the shell's folder).
  static constexpr std::array<std::string_view, 3> k_words = {"pat", "pwd", "pw"};
  std::string lower = to_lower(name);
  bool named = std::any_of(k_markers.begin(), k_markers.end(),
                           [&](std::string_view marker) { return lower.find(marker) != std::string::npos; });
  bool worded = lower != "pwd" && std::any_of(k_words.begin(), k_words.end(), [&](std::string_view word) {
    return lower == word || lower.starts_with(std::string(word) + "_") || lower.ends_with("_" + std::string(word)) ||
           lower.find("_" + std::string(word) + "_") != std::string::npos;
  });
  return named || worded || holds_url_password(value);
}

bool is_environment_name(std::string_view name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

}  // namespace agent_run
