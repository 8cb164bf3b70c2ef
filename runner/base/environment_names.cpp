#include "base/environment_names.h"

#include "base/text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace agent_run {

bool looks_secret(std::string_view name) {
  static constexpr std::array<std::string_view, 7> k_markers = {"key",    "token",      "secret", "password",
                                                                "passwd", "credential", "auth"};
  const std::string lower = to_lower(name);
  return std::any_of(k_markers.begin(), k_markers.end(),
                     [&](std::string_view marker) { return lower.find(marker) != std::string::npos; });
}

bool is_environment_name(std::string_view name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

}  // namespace agent_run
