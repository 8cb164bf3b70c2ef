#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// `text` with every occurrence of each secret value replaced by "[redacted]" (values shorter than
/// 4 bytes are left alone: they would blank out ordinary words).
std::string redact_values(std::string text, const std::vector<std::string>& secrets);

/// Whether `text` holds one of the values redact_values would replace.
bool holds_secret_value(std::string_view text, const std::vector<std::string>& secrets);

}  // namespace agent_run
