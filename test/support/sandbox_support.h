#pragma once

#include "base/expected.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace agent_run::test {

// Sandbox tests need bubblewrap to work on the machine. Where it does not, they FAIL, with
// bubblewrap's own words, unless AGENT_RUN_SKIP_SANDBOX_TESTS=1 is set: then each says it was skipped.

/// The variable that lets the sandbox tests be skipped on a machine known to forbid namespaces.
inline constexpr const char* k_skip_sandbox_tests = "AGENT_RUN_SKIP_SANDBOX_TESTS";

/// Whether a sandbox starts here (a holder and one command in it), probed once per test process.
Expected<void> bubblewrap_works();

/// A Boost.Test precondition for a suite or case of sandbox tests: true where bubblewrap works;
/// where it does not, false (Boost.Test reports the case as skipped, with the reason) only when
/// AGENT_RUN_SKIP_SANDBOX_TESTS=1, else true, so the cases run and fail.
boost::test_tools::assertion_result sandbox_usable(boost::unit_test::test_unit_id);

/// For the start of one sandbox test: true where bubblewrap works; else, with the variable set, says
/// the test is skipped and returns false; without it, fails the test.
bool sandbox_tests_can_run();

/// This test process's environment, KEY=VALUE (what a runner would start from).
std::vector<std::string> test_environment();

}  // namespace agent_run::test
