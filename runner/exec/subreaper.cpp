#include "exec/subreaper.h"

#include <sys/prctl.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace agent_run {

Expected<void> become_child_subreaper() {
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    return make_error(std::string("cannot become a child subreaper: ") + std::strerror(errno));
  }
  return {};
}

bool is_child_subreaper() {
  int flag = 0;
  return ::prctl(PR_GET_CHILD_SUBREAPER, &flag, 0, 0, 0) == 0 && flag != 0;
}

}  // namespace agent_run
