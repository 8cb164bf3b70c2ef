#include "base/count_text.h"

namespace agent_run {

std::string count_of(std::size_t count, std::string_view singular, std::string_view plural) {
  return std::to_string(count) + " " + std::string(count == 1 ? singular : plural);
}

}  // namespace agent_run
