#pragma once

#include <string_view>

namespace agent_run {

/// Whether an environment variable's name looks like it holds a secret (`*KEY*`, `*TOKEN*`,
/// `*SECRET*`, `*PASSWORD*`, `*PASSWD*`, `*CREDENTIAL*`, `*AUTH*`, in any case).
bool looks_secret(std::string_view name);

/// Whether `name` can be an environment variable's name: letters, digits and `_`, not starting
/// with a digit.
bool is_environment_name(std::string_view name);

}  // namespace agent_run
