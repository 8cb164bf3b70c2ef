#include "support/skip_variables.h"

#include <cstdlib>
#include <string_view>

namespace agent_run::test {

bool skip_requested(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr && std::string_view(value) == "1";
}

}  // namespace agent_run::test
