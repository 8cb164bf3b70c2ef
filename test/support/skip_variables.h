#pragma once

namespace agent_run::test {

/// Whether the environment asks to skip the tests `variable` names (AGENT_RUN_SKIP_SANDBOX_TESTS,
/// AGENT_RUN_SKIP_MOUNT_TESTS, ...): it is set to 1, as docs/developing.md writes it. Any other
/// value, empty or 0 included, runs them: every skip variable is read here and only here.
bool skip_requested(const char* variable);

}  // namespace agent_run::test
