#include "base/redaction.h"

namespace agent_run {

namespace {

constexpr std::size_t k_shortest_secret = 4;
constexpr const char* k_marker = "[redacted]";

}  // namespace

std::string redact_values(std::string text, const std::vector<std::string>& secrets) {
  for (const std::string& secret : secrets) {
    if (secret.size() < k_shortest_secret) continue;
    const std::string marker = k_marker;
    for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + marker.size())) {
      text.replace(at, secret.size(), marker);
    }
  }
  return text;
}

bool holds_secret_value(std::string_view text, const std::vector<std::string>& secrets) {
  for (const std::string& secret : secrets) {
    if (secret.size() >= k_shortest_secret && text.find(secret) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace agent_run
