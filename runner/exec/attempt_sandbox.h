#pragma once

#include "base/clock.h"
#include "base/expected.h"
#include "exec/child_process.h"
#include "exec/mount_survey.h"
#include "exec/process.h"
#include "exec/sandbox_layout.h"

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace agent_run {

/// One attempt's sandbox: a bubblewrap process (the holder) that keeps the attempt's namespaces and
/// mounts alive while the agent works (or while the checks run: they get a fresh one), and the way
/// every command enters it. Each command gets its own PID namespace and /proc there, so it sees
/// neither agent-run nor another command's processes, and shares with the attempt's other commands
/// only the workspace, the private /tmp and HOME, and the loopback (so a background server answers
/// the next command). The holder dies with agent-run (bubblewrap's --die-with-parent); stopping or
/// destroying this object ends it and removes the sandbox's folder.
/// A hidden path that the sandbox's start did not mask (it appeared later, or was found later), and
/// when a command entering the sandbox first masked it.
struct MaskedLater {
  std::filesystem::path path;  // where the mask was mounted (links resolved)
  bool folder = false;
  std::string why;                // what hides it: the rule id, "moved from .env (secrets)", ...
  Clock::WallTime first_masked;  // by `clock` of mask_late_paths
};

/// A path the policy keeps read-only that did not exist when the sandbox started and a command
/// created (a new `.gitlab-ci.yml`: only what exists can be mounted read-only), and when it was
/// removed: before the next command entered, or when the sandbox stopped.
struct RemovedLater {
  std::filesystem::path path;
  std::string why;  // the rule that keeps it read-only
  Clock::WallTime removed_at;
};

class AttemptSandbox {
 public:
  /// Makes the sandbox's folder under `parent` (its private /tmp with HOME in it, the mask file, the
  /// sanitized git config), lays out the mounts and starts the holder with `environment` (KEY=VALUE:
  /// PATH finds bubblewrap and util-linux). The error carries bubblewrap's own words.
  static Expected<std::unique_ptr<AttemptSandbox>> start(SandboxRequest request, const std::filesystem::path& parent,
                                                         const std::vector<std::string>& environment);
  ~AttemptSandbox();
  AttemptSandbox(const AttemptSandbox&) = delete;
  AttemptSandbox& operator=(const AttemptSandbox&) = delete;

  /// `spec` run inside: its argv through the entry, its environment made the sandbox's (HOME,
  /// TMPDIR); its folder, timeout, output caps and cancellation kept.
  ProcessSpec wrap(ProcessSpec spec) const;
  /// `argv` run inside in `cwd`, for a long-lived child (a language server).
  std::vector<std::string> wrap_argv(const std::vector<std::string>& argv, const std::filesystem::path& cwd) const;
  /// `environment` as a command inside sees it.
  std::vector<std::string> inside_environment(const std::vector<std::string>& environment) const;
  /// From now on every command entering (wrap, wrap_argv) surveys the workspace again with
  /// `request` (`at_start`: the survey the holder's mounts were laid out from) and masks, in a mount
  /// namespace of its own, each hidden path the holder's mounts do not cover: a file a deny rule
  /// hides that setup's daemon or the agent created after the sandbox started. A process already
  /// running when such a file appears keeps seeing it. `clock` (which outlives the sandbox) dates
  /// each mask's first use.
  void mask_late_paths(SurveyRequest request, Survey at_start, const Clock& clock);
  /// Each path masked after the start, in the order commands first masked it.
  std::vector<MaskedLater> masked_later() const;
  /// Each read-only path a command created that was removed, in order (with mask_late_paths only).
  std::vector<RemovedLater> removed_later() const;

  const SandboxLayout& layout() const { return m_layout; }
  /// The holder's sandboxed child, whose namespaces commands enter.
  pid_t holder() const { return m_holder_child; }
  /// bubblewrap's version ("0.8.0"), for the report.
  const std::string& bubblewrap_version() const { return m_version; }

  /// Ends the holder (and with it anything still inside) and removes the sandbox's folder.
  void stop();

 private:
  AttemptSandbox() = default;
  Expected<void> launch(const std::vector<std::string>& environment);
  /// The hidden paths a survey finds now that the holder's mounts do not mask; removes the read-only
  /// paths created since the start first.
  LateMasks late_masks() const;
  /// Removes what remove_created_read_only finds in m_last_survey (the mutex held).
  void remove_created_read_only() const;

  SandboxLayout m_layout;
  std::filesystem::path m_folder;
  SandboxEntryTools m_tools;
  std::optional<ChildProcess> m_holder;
  pid_t m_holder_child = -1;
  std::string m_version;
  std::optional<SurveyRequest> m_resurvey;  // mask_late_paths's; nullopt: only the holder's masks
  mutable std::mutex m_survey_mutex;        // commands enter from several threads
  mutable Survey m_last_survey;             // hidden identities carry over to the next survey
  const Clock* m_clock = nullptr;           // mask_late_paths's
  mutable std::vector<MaskedLater> m_masked_later;
  std::set<std::string> m_read_only_at_start;  // workspace-relative: what existed read-only at the start
  mutable std::vector<RemovedLater> m_removed_later;
};

/// `spec` as an attempt runs it: inside `sandbox` (the agent's, or the checks' fresh one) when there
/// is one, else as it is. The one way to put an attempt's one-shot commands (checks, per-edit linters
/// and their --version) in its sandbox.
ProcessSpec in_attempt_sandbox(const AttemptSandbox* sandbox, ProcessSpec spec);

}  // namespace agent_run
