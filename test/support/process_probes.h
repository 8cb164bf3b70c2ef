#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace agent_run::test {

/// Makes the test process a child subreaper, as agent-run is at start, for the whole test binary
/// (use with BOOST_GLOBAL_FIXTURE once per binary).
struct SubreaperFixture {
  SubreaperFixture();
};

/// Whether `pid` is a live process (a zombie counts as gone).
bool is_alive(pid_t pid);

/// Whether `pid` is gone (or a zombie) within `patience` (SIGKILL is delivered asynchronously). It
/// returns as soon as the process is gone; the patience is generous for a loaded machine.
bool is_gone_soon(pid_t pid, std::chrono::milliseconds patience = std::chrono::seconds(30));

/// The test process's zombie children: what nobody reaped.
std::vector<pid_t> zombie_children();

/// Every process, alive or zombie, whose process group is `group`.
std::vector<pid_t> members_of_group(pid_t group);

/// The number of open file descriptors of the test process.
std::size_t open_descriptor_count();

/// The live processes (other than this one) whose environment holds `text` or whose working folder
/// is under it: what a run with `text` as its TMPDIR left running.
std::vector<pid_t> processes_naming(const std::string& text);

/// The pids printed one per line in `output` (other lines are skipped).
std::vector<pid_t> pids_in(const std::string& output);

/// Waits until `condition` holds, looking every 10 ms for at most `patience`: for events nothing
/// offers a wait for (a logging message arrived, a process is gone). The patience is far longer
/// than the event needs, so a loaded machine does not fail the test.
bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds patience = std::chrono::seconds(60));

}  // namespace agent_run::test
