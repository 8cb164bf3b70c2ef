#pragma once

#include "security/security_fixture.h"

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace agent_run::test {

// The harness of the security suite's scripted runs ([S]): one real `agent-run run` of an in-place
// task over the scene's repository whose scripted model makes every call of a list, under one
// stock policy with the sandbox on or off; each call's answer is read back from the attempt's
// report (the decision) and transcript (what the model saw), and the scene is checked after it.

/// What a call must come to in one mode. `ran`: allowed, and its answer holds the call's
/// `evidence`; `refused`: allowed, and the kernel refused its write ("Read-only file system", or the
/// path is not there inside: "Directory nonexistent", "No such file or directory");
/// `withheld`: allowed, and the answer says that hidden files were left out; `any`: allowed or
/// denied (the kernel stands between it and the canaries either way); `skip`: not in this run.
enum class Expect { denied, ran, refused, withheld, any, skip };

/// One tool call of the scripted runs and what must come of it with the sandbox on and off.
struct Call {
  std::string label;
  Json call;
  Expect on;
  Expect off;
  std::string evidence;  // for `ran`: a piece of the answer
};

/// The calls of a run, made for the scene, the policy's name and the task's id (its file is
/// root/tasks/ID.yaml).
using CallList = std::function<std::vector<Call>(SecurityFixture&, const std::string& policy, const std::string& id)>;

/// Changes of the calls' expectations for one policy and sandbox setting, by label.
using Overrides = std::map<std::string, Expect>;

/// What the model saw of one call, with the decision the report records.
struct Answer {
  std::string decision;
  std::string decided_by;
  std::string rule_id;
  std::string content;
};

/// The attempt's calls in order: the report's decision, the transcript's answer.
std::vector<Answer> answers_of(const TaskRun& run);

/// The hunk of `patch` that adds notes/alias.txt (the scene's hard link to .env), or "".
std::string alias_hunk(const std::string& patch);

/// One scripted run in a fresh scene of every call of `calls` under policies/POLICY.yaml, with the
/// sandbox on or off (`--sandbox off`), with `overrides`. Checks each answer; that no canary
/// reached an answer, the transcript, the output or the report folder; that nothing outside the
/// workspace, in .git, the policy, the task file or (but under permissive.yaml) CI configuration
/// changed; that no listener was reached; and that the attempt passed its check. Prints and
/// returns the number of cases (each call, and the run's checks); adds it to scripted_cases().
std::size_t run_scripted(const std::string& policy, bool sandbox_on, const CallList& calls,
                         const Overrides& overrides = {});

/// The cases run_scripted has run in this process.
std::size_t& scripted_cases();

}  // namespace agent_run::test
