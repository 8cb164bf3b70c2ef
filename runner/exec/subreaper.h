#pragma once

#include "base/expected.h"

namespace agent_run {

/// Makes the runner a child subreaper (prctl PR_SET_CHILD_SUBREAPER): processes orphaned by the
/// commands it runs (a double fork, a setsid daemon) are re-parented to the runner instead of PID 1,
/// so it can find, kill and reap them. Process-wide; called once by app/ at start.
Expected<void> become_child_subreaper();

/// Whether the runner is a child subreaper.
bool is_child_subreaper();

}  // namespace agent_run
