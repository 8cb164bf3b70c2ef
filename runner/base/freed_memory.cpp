#include "base/freed_memory.h"

#include <malloc.h>

namespace agent_run {

void return_freed_memory() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

}  // namespace agent_run
