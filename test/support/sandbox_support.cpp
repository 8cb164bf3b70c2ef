#include "support/sandbox_support.h"

#include "base/files.h"
#include "exec/sandbox_probe.h"
#include "support/skip_variables.h"

#include <cstdlib>
#include <filesystem>
#include <optional>

extern char** environ;

namespace agent_run::test {

namespace {

bool skipping_allowed() { return skip_requested(k_skip_sandbox_tests); }

/// The probe's folder under /tmp, removed when the test process ends.
struct ProbeFolder {
  std::filesystem::path path;
  ProbeFolder() {
    auto made = make_unique_folder(std::filesystem::temp_directory_path(), "agent-run-test-probe-");
    if (made) path = *made;
  }
  ~ProbeFolder() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

std::vector<std::string> test_environment() {
  std::vector<std::string> environment;
  for (char** entry = environ; entry && *entry; ++entry) environment.emplace_back(*entry);
  return environment;
}

Expected<void> bubblewrap_works() {
  static ProbeFolder folder;
  static const Expected<void> works = [] {
    SandboxProbe probe(test_environment(), folder.path, read_machine_facts(false));
    return probe.check(SandboxSpec{});
  }();
  return works;
}

boost::test_tools::assertion_result sandbox_usable(boost::unit_test::test_unit_id) {
  Expected<void> works = bubblewrap_works();
  if (works || !skipping_allowed()) return true;
  boost::test_tools::assertion_result skipped(false);
  skipped.message() << "sandbox test skipped (" << k_skip_sandbox_tests << "=1): " << works.error().message;
  return skipped;
}

bool sandbox_tests_can_run() {
  Expected<void> works = bubblewrap_works();
  if (works) return true;
  if (skipping_allowed()) {
    BOOST_TEST_MESSAGE("sandbox test skipped (" << k_skip_sandbox_tests << "=1): " << works.error().message);
    return false;
  }
  BOOST_FAIL("bubblewrap does not work on this machine: " + works.error().message + "; set " + k_skip_sandbox_tests +
             "=1 to skip the sandbox tests here");
  return false;
}

}  // namespace agent_run::test
