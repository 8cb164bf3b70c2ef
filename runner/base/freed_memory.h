#pragma once

namespace agent_run {

/// Gives the whole pages of memory that were freed back to the system (glibc's malloc_trim): a long
/// run frees more than it keeps after every attempt, and the allocator otherwise holds on to it.
void return_freed_memory();

}  // namespace agent_run
