#pragma once

#include <string>
#include <string_view>

namespace agent_run {

/// Lower-case hexadecimal SHA-256 of `content`: content hashes of policy and task files.
std::string sha256_hex(std::string_view content);

}  // namespace agent_run
