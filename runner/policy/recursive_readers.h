#pragma once

#include <string>
#include <vector>

namespace agent_run {

/// What one command reads folder by folder, whatever files are in them: `grep -r` and kin, rgrep,
/// rg, ag, ack, `diff -r`, `find` with an action that runs or writes (-exec, -ok, -fprint, -delete),
/// `tar` creating an archive, `zip -r`, `cp -r`/`-a`, rsync, `git grep` and `git diff --no-index`.
struct RecursiveRead {
  std::string reader;                 // how messages name it: "grep -r", "rg", "find -exec", ...
  std::vector<std::string> operands;  // the words that may name a folder it reads ("." when it names none)
};

/// The recursive read `argv` makes, if it makes one (an empty `reader` when it does not).
RecursiveRead recursive_read(const std::vector<std::string>& argv);

}  // namespace agent_run
