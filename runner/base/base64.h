#pragma once

#include "base/expected.h"

#include <string>
#include <string_view>

namespace agent_run {

/// Standard base64 (RFC 4648, with padding): image blocks for the model.
std::string base64_encode(std::string_view bytes);

/// Decodes standard base64 (ripgrep's JSON carries non-UTF-8 text that way).
Expected<std::string> base64_decode(std::string_view text);

}  // namespace agent_run
