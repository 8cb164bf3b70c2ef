#include "app/environment.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace agent_run {

bool looks_secret(const std::string& name) {
  static constexpr std::array<std::string_view, 7> k_markers = {"KEY",    "TOKEN",      "SECRET", "PASSWORD",
                                                                "PASSWD", "CREDENTIAL", "AUTH"};
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  return std::any_of(k_markers.begin(), k_markers.end(),
                     [&](std::string_view marker) { return upper.find(marker) != std::string::npos; });
}

std::vector<std::string> scrubbed_environment(char** environ_entries) {
  std::vector<std::string> environment;
  for (char** entry = environ_entries; entry && *entry; ++entry) {
    std::string text = *entry;
    std::string name = text.substr(0, text.find('='));
    if (!looks_secret(name)) {
      environment.push_back(std::move(text));
    }
  }
  return environment;
}

}  // namespace agent_run
