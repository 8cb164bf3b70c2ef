#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace agent_run {

/// `count` and the noun for it: "1 check", "3 checks" (`plural` for every count but 1).
std::string count_of(std::size_t count, std::string_view singular, std::string_view plural);

}  // namespace agent_run
