#pragma once

#include "base/expected.h"
#include "batch/attempt_plan.h"
#include "exec/attempt_sandbox.h"
#include "exec/mount_survey.h"
#include "exec/shown_folders.h"
#include "policy/policy.h"
#include "report/run_report.h"
#include "workspace/workspace.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

// Putting one attempt's commands (or one `agent-run tool` session's) into the sandbox: what the
// policy hides and keeps read-only (the survey), where the workspace came from, and the holder.

/// Where a sandbox goes and what surrounds it.
struct SandboxSite {
  SandboxSpec spec;
  std::filesystem::path workspace;                     // absolute, resolved
  WorkspaceOrigin origin;                              // the source folder and the repository's git folder and config
  const Policy* policy = nullptr;                      // classifies paths (policy/path_classes)
  std::vector<std::filesystem::path> protected_paths;  // the policy file, the task file, the report folder
  std::optional<std::filesystem::path> runner_home;    // agent-run's HOME: its credential folders are masked
  std::filesystem::path scratch;                       // the sandbox's own folder goes here
  std::vector<std::filesystem::path> hidden_roots;     // emptied inside: the run's other workspaces
  std::vector<std::string> environment;                // the holder's (PATH finds bubblewrap and util-linux)
  const Clock* clock = nullptr;                        // dates late masks; nullptr: the machine's
  std::optional<std::filesystem::path> home_cache;     // HOME/.cache in each of the attempt's sandboxes
  std::vector<ShownFolder> shown;                      // the task's programs' folders, `sandbox: {read, read_write}`
};

/// A running sandbox and the survey it was laid out from.
struct StartedSandbox {
  std::unique_ptr<AttemptSandbox> sandbox;
  Survey survey;
  Clock::WallTime started_at;  // by the site's clock
};

/// The survey's classifier: what the policy says of each path (classify_path) for this workspace.
PathClassifier policy_classifier(const Policy& policy, const DecisionContext& context);

/// Surveys the workspace (a file hidden in `previous` stays hidden under a new name) and starts a
/// sandbox laid out from it. Fails when the survey or bubblewrap fails, or the policy hides too many
/// paths to mask.
Expected<StartedSandbox> start_sandbox(const SandboxSite& site, const Survey* previous = nullptr);

/// The report's record of the sandbox `site` asked for: what a started one masked, or why none ran.
SandboxRecord sandbox_record(const SandboxSite& site, const StartedSandbox* started, const std::string& why_none);

/// Adds to `record` what `started` masked beyond its own start's masks, as `during` ("agent",
/// "checks"): the hidden paths its commands masked late, and, for the checks' sandbox, what its start
/// masked that the agent's start (`before`) did not. A path already listed keeps its first entry.
void record_later_masks(SandboxRecord& record, const SandboxSite& site, const StartedSandbox& started,
                        const std::string& during, const StartedSandbox* before = nullptr);

/// The warning for each read-only path a command of `started` created and the sandbox removed
/// (AttemptSandbox::removed_later): CI configuration, and whatever else the policy keeps read-only.
std::vector<std::string> removed_warnings(const StartedSandbox& started, const SandboxSite& site);

/// Why no sandbox was used for `spec` (mode off): "sandbox: off (FILE:LINE)" or "--sandbox off".
std::string why_unsandboxed(const SandboxSpec& spec);

/// The warning printed (and put in the report's warnings) when commands run unsandboxed.
std::string unsandboxed_warning(const SandboxSpec& spec, std::size_t attempts);

/// `--sandbox on|off` as a spec (nullopt when not given): on is the default sandbox for every task.
std::optional<SandboxSpec> sandbox_flag(std::optional<bool> on);

/// What the patch and the commit leave out of `workspace`: a path the policy hides (a deny rule on
/// reads) or keeps read-only (a deny rule on edits, a protected path), and another name of a file
/// the survey hid; without a survey (nullptr: no sandbox ran), every regular file with more than one
/// name, since one of them may be hidden. The reason reads "hidden by rule 'R'", "read-only: rule
/// 'R'", "read-only: protected path", "another name of a hidden file (...)", "a file with another
/// name, ...".
PatchFilter patch_filter(const Policy& policy, const std::filesystem::path& workspace,
                         const std::vector<std::filesystem::path>& protected_paths, const Survey* survey);

/// What the snapshot taken after setup (Workspace::take_baseline) must not store, only hash: what
/// patch_filter withholds without a survey, every regular file with more than one name included (a
/// hard link to a hidden file is known as one only once the survey has run, after the snapshot).
PatchFilter baseline_filter(const Policy& policy, const std::filesystem::path& workspace,
                            const std::vector<std::filesystem::path>& protected_paths);

/// One warning per place that turns the sandbox off for the attempts that will run (`plans`: those
/// --resume did not take over), with how many it turns off.
std::vector<std::string> unsandboxed_warnings(const std::vector<const AttemptPlan*>& plans,
                                              const std::optional<SandboxSpec>& flag);

/// When `spec` turns the sandbox off under a policy that needs one (policy/sandboxed_bash:
/// `sandboxed_bash: allow` without `unmatched: deny`, as in permissive.yaml): the error naming who
/// turned it off and the policy's line; nullopt otherwise.
std::optional<std::string> sandbox_off_refusal(const Policy& policy, const SandboxSpec& spec);

/// The first attempt whose sandbox is turned off (by its task, its policy or `flag`) under a policy
/// that needs one (policy/sandboxed_bash: `sandboxed_bash: allow` without `unmatched: deny`, as in
/// permissive.yaml): the error that stops the run before anything runs; nullopt when there is none.
std::optional<std::string> sandbox_needed_but_off(const std::vector<AttemptPlan>& plans,
                                                  const std::optional<SandboxSpec>& flag);

}  // namespace agent_run
