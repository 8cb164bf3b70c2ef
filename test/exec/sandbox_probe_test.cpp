#include "exec/sandbox_probe.h"
#include "support/fixtures.h"
#include "support/sandbox_support.h"
#include "support/skip_variables.h"

#include <boost/test/unit_test.hpp>

#include <cstdlib>

namespace agent_run {
namespace {

const std::string k_or_off = "or set 'sandbox: off' to run without it (recorded in the report)";

}  // namespace

BOOST_AUTO_TEST_SUITE(sandbox_availability)

BOOST_AUTO_TEST_CASE(bubblewrap_works_on_this_machine) {
  Expected<void> works = test::bubblewrap_works();
  if (!works && test::skip_requested(test::k_skip_sandbox_tests)) {
    BOOST_TEST_MESSAGE("sandbox tests skipped (" << test::k_skip_sandbox_tests
                                                 << "=1): " << works.error().message);
    return;
  }
  BOOST_TEST(works.has_value(), (works ? std::string() : works.error().message) +
                                    "; the sandbox tests fail with it. Set " + test::k_skip_sandbox_tests +
                                    "=1 to accept that on this machine");
}

BOOST_AUTO_TEST_CASE(without_bubblewrap_the_sandbox_is_unavailable_with_what_to_do_never_unsandboxed) {
  test::TempFolder folder;
  SandboxProbe probe({"PATH=/nonexistent"}, folder.path(), MachineFacts{});
  SandboxSpec spec;
  spec.set_by = "tasks/t.yaml:4";
  auto works = probe.check(spec);
  BOOST_REQUIRE(!works.has_value());
  BOOST_TEST(
      works.error().message ==
      "the sandbox ('sandbox:' at tasks/t.yaml:4) cannot start on this machine: cannot run 'bwrap': No such file "
      "or directory; install Debian's 'bubblewrap' package (ci/setup.sh does), " +
          k_or_off);
  spec.mode = SandboxMode::off;
  BOOST_TEST(probe.check(spec).has_value());  // off asks nothing of bubblewrap
}

BOOST_AUTO_TEST_CASE(each_failure_of_bubblewrap_gets_its_advice) {
  MachineFacts plain;
  MachineFacts ubuntu;
  ubuntu.apparmor_restrict_unprivileged_userns = 1;
  MachineFacts container;
  container.in_container = true;
  MachineFacts kubernetes;
  kubernetes.in_container = true;
  kubernetes.kubernetes = true;
  BOOST_TEST(sandbox_advice("bwrap: setting up uid map: Permission denied", ubuntu)
                 .starts_with("Ubuntu's AppArmor forbids unprivileged user namespaces: run 'sudo sysctl -w "
                              "kernel.apparmor_restrict_unprivileged_userns=0' first (on GitHub-hosted ubuntu-24.04 "
                              "runners, in a step before "
                              "agent-run), "));
  BOOST_TEST(sandbox_advice("bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted", ubuntu)
                 .starts_with("Ubuntu's AppArmor"));
  BOOST_TEST(sandbox_advice("bwrap: No permissions to create new namespace, likely because the kernel does not allow "
                            "non-privileged user namespaces.",
                            plain)
                 .starts_with("this kernel forbids unprivileged user namespaces: run 'sudo sysctl -w "
                              "kernel.unprivileged_userns_clone=1', "));
  BOOST_TEST(sandbox_advice("bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces "
                            "exceeded (ENOSPC)",
                            plain)
                 .starts_with("user namespaces are disabled (user.max_user_namespaces=0) or agent-run runs inside "
                              "another sandbox"));
  BOOST_TEST(sandbox_advice("bwrap: Creating new namespace failed: Operation not permitted", container)
                 .starts_with("this container forbids the namespaces the sandbox needs: run it with '--privileged'"));
  BOOST_TEST(
      sandbox_advice("bwrap: Creating new namespace failed: Operation not permitted", container).find("Kubernetes") ==
      std::string::npos);
  BOOST_TEST(sandbox_advice("bwrap: setting up uid map: Operation not permitted", kubernetes)
                 .find("Kubernetes: 'securityContext: {privileged: true}'") != std::string::npos);
  BOOST_TEST(sandbox_advice("bwrap: Can't mount proc on /newroot/proc: Operation not permitted", container)
                 .starts_with("this container masks /proc"));
  BOOST_TEST(sandbox_advice("cannot run 'nsenter': No such file or directory (the sandbox needs util-linux's nsenter, "
                            "unshare and setpriv)",
                            plain)
                 .starts_with("install Debian's 'util-linux' package"));
  BOOST_TEST(sandbox_advice("bwrap: Creating new namespace failed: Invalid argument", plain)
                 .starts_with("the sandbox cannot start on this machine (unprivileged user namespaces may be disabled"));
  // Not the machine's namespaces: a mount of the layout failed at one path, or something else.
  for (const char* said : {"bwrap: Can't create file at /home/u/.ssh/id_rsa: Read-only file system",
                           "bwrap: Can't mkdir /newroot/w/x: No such file or directory",
                           "bwrap: Can't find source path /w/a: No such file or directory"}) {
    for (const MachineFacts& facts : {plain, ubuntu, container}) {
      std::string advice = sandbox_advice(said, facts);
      BOOST_TEST(advice.starts_with("bubblewrap could not mount over the path it names"), said << ": " << advice);
      BOOST_TEST(advice.find("user namespaces") == std::string::npos, advice);
      BOOST_TEST(advice.ends_with(k_or_off), advice);
    }
  }
  BOOST_TEST(sandbox_advice("bwrap: something new", plain)
                 .starts_with("bubblewrap failed for the reason it gives above, and nothing ran unsandboxed"));
  BOOST_TEST(sandbox_advice("bwrap: something new", plain).find("namespace") == std::string::npos);
  for (const char* said : {"cannot run 'bwrap'", "uid map: Permission denied", "bwrap: something new"}) {
    BOOST_TEST(sandbox_advice(said, ubuntu).ends_with(k_or_off), said);
  }
}

BOOST_AUTO_TEST_CASE(who_asked_for_the_sandbox_reads_plainly) {
  SandboxSpec spec;
  BOOST_TEST(sandbox_asker(spec) == "on by default");
  spec.set_by = "--sandbox on";
  BOOST_TEST(sandbox_asker(spec) == "--sandbox on");
  spec.set_by = "policies/p.yaml:3";
  BOOST_TEST(sandbox_asker(spec) == "'sandbox:' at policies/p.yaml:3");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
