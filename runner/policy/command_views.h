#pragma once

#include "policy/shell_parser.h"

#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// Everything one simple command may run: the command itself and, seen through wrappers (env,
/// sudo, doas, timeout, nice, ionice, nohup, setsid, stdbuf, chrt, taskset, flock, chroot, time,
/// watch, xargs, busybox, find -exec, `sh -c` and the other shells, su -c), the commands they
/// start. Deny rules and path checks look at every view; allow rules only at the command itself.
struct CommandViews {
  std::vector<std::vector<std::string>> argvs;  // the command first, then what it wraps
  std::vector<ShellRedirect> redirects;         // the command's, and those of `sh -c` scripts
  std::vector<std::string> assignments;         // NAME=value words before the command and in wrapped scripts
  std::string folder;                           // where an earlier `cd` of the line moved to (SimpleCommand::folder)
  std::string problem;                          // a wrapped script that is not understood
};

/// How command_views reads a script that a wrapper runs (`sh -c`, `su -c`, `watch`, `env -S`).
enum class ScriptReading {
  strict,  // parse_shell: a script it does not understand is a problem
  parts,   // shell_parts: every part it finds, a problem only when its limits stopped it (sandboxed bash)
};

/// The views of `command`; a `problem` when a wrapped script cannot be checked.
CommandViews command_views(const SimpleCommand& command, ScriptReading reading = ScriptReading::strict);

/// The program name a rule compares: `argv0` after its last '/'.
std::string_view program_name(std::string_view argv0);

}  // namespace agent_run
