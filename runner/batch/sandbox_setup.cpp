#include "batch/sandbox_setup.h"

#include "base/paths.h"
#include "batch/attempt_session.h"
#include "policy/path_classes.h"
#include "policy/sandboxed_bash.h"
#include "workspace/git_index_view.h"

#include <sys/stat.h>

#include <algorithm>
#include <map>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// How a mounted path reads in the report: relative inside the workspace, `~/...` in agent-run's
/// HOME, absolute elsewhere.
std::string shown(const fs::path& path, const SandboxSite& site) {
  if (is_at_or_under(path, site.workspace)) return path.lexically_relative(site.workspace).string();
  if (site.runner_home && is_at_or_under(path, *site.runner_home)) {
    return "~/" + path.lexically_relative(*site.runner_home).string();
  }
  return path.string();
}

void list_into(std::vector<std::string>& out, const std::vector<fs::path>& paths, const SandboxSite& site) {
  for (const fs::path& path : paths) {
    if (out.size() >= SandboxRecord::k_max_listed) return;
    out.push_back(shown(path, site));
  }
}

/// What the survey says hides `path` (a mask's path: a hidden file, or a hidden link's target), or
/// "agent-run's HOME" for its credential folders.
std::string why_hidden(const fs::path& path, const Survey& survey, const SandboxSite& site) {
  for (const SurveyedPath& hidden : survey.hidden) {
    if (hidden.absolute == path) return hidden.rule;
  }
  return site.runner_home && is_at_or_under(path, *site.runner_home) ? "agent-run's HOME" : "";
}

/// git inside the sandbox sees an index in which the hidden tracked files are skip-worktree
/// (workspace/git_index_view): `git diff` and `git status` work and say nothing of them. Without a
/// view (no repository, nothing hidden tracked, an index libgit2 cannot read) git sees the real one.
SandboxFileViews git_index_views(const SandboxSite& site, const Survey& survey) {
  std::vector<std::string> hidden;
  for (const SurveyedPath& path : survey.hidden) {
    if (is_at_or_under(path.absolute, site.workspace)) hidden.push_back(path.relative);
  }
  if (hidden.empty()) return {};
  return [workspace = site.workspace, hidden = std::move(hidden)](const fs::path& folder) {
    std::vector<std::pair<fs::path, fs::path>> views;
    auto view = git_index_view(workspace, hidden, folder / "git-index");
    if (view && *view) views.emplace_back((*view)->copy, (*view)->index);
    return views;
  };
}

SandboxRequest request_for(const SandboxSite& site, const Survey& survey) {
  SandboxRequest request;
  request.spec = site.spec;
  request.workspace = site.workspace;
  if (site.origin.source && !is_at_or_under(site.workspace, *site.origin.source)) {
    request.source_checkout = resolved_path(*site.origin.source);
  }
  fs::path git_folder = resolved_path(site.origin.git_folder);
  if (!is_at_or_under(git_folder, site.workspace)) request.git_common_folder = git_folder;
  request.git_config = resolved_path(site.origin.git_config);
  request.protected_paths = site.protected_paths;
  request.hidden_roots = site.hidden_roots;
  request.runner_home = site.runner_home;
  request.survey = &survey;
  request.home_cache = site.home_cache;
  request.file_views = git_index_views(site, survey);
  request.shown = site.shown;
  return request;
}

}  // namespace

PathClassifier policy_classifier(const Policy& policy, const DecisionContext& context) {
  return path_classifier(policy, context, SurveyedText::absolute);
}

Expected<StartedSandbox> start_sandbox(const SandboxSite& site, const Survey* previous) {
  DecisionContext context;
  context.workspace = site.workspace;
  context.protected_paths = site.protected_paths;
  context.sandboxed = true;
  SurveyRequest survey_request;
  survey_request.workspace = site.workspace;
  survey_request.classify = policy_classifier(*site.policy, context);
  survey_request.previous = previous;
  static const SystemClock k_machine_clock;
  const Clock& clock = site.clock ? *site.clock : k_machine_clock;
  auto survey = survey_paths(survey_request);
  if (!survey) return survey.error();
  StartedSandbox started;
  started.started_at = clock.wall_now();
  started.survey = std::move(*survey);
  auto sandbox = AttemptSandbox::start(request_for(site, started.survey), site.scratch, site.environment);
  if (!sandbox) return sandbox.error();
  started.sandbox = std::move(*sandbox);
  survey_request.previous = nullptr;  // the sandbox keeps its own last survey
  started.sandbox->mask_late_paths(std::move(survey_request), started.survey, clock);
  return started;
}

SandboxRecord sandbox_record(const SandboxSite& site, const StartedSandbox* started, const std::string& why_none) {
  const SandboxSpec& spec = site.spec;
  SandboxRecord record;
  record.set_by = spec.set_by;
  record.network = spec.network == SandboxNetwork::on ? "host" : "off";
  record.write = to_string(spec.write);
  if (started == nullptr || !started->sandbox) {
    record.why_none = why_none;
    return record;
  }
  record.kind = "bubblewrap";
  const SandboxLayout& layout = started->sandbox->layout();
  record.bubblewrap = started->sandbox->bubblewrap_version();
  list_into(record.masked, layout.masked_folders, site);
  list_into(record.masked, layout.masked_files, site);
  record.masked_total = layout.masked_folders.size() + layout.masked_files.size();
  list_into(record.read_only, layout.read_only, site);
  for (const ShownFolder& folder : layout.shown) {
    if (record.shown.size() >= SandboxRecord::k_max_listed) break;
    record.shown.push_back({folder.target.string(), folder.why, folder.writable});
  }
  record.survey_complete = started->survey.complete;
  record.survey_note = started->survey.incomplete_reason;
  return record;
}

void record_later_masks(SandboxRecord& record, const SandboxSite& site, const StartedSandbox& started,
                        const std::string& during, const StartedSandbox* before) {
  std::vector<MaskedLater> masks;
  if (before && before->sandbox) {  // what the checks' start masked and the agent's did not
    const SandboxLayout& earlier = before->sandbox->layout();
    const SandboxLayout& layout = started.sandbox->layout();
    for (const auto* paths : {&layout.masked_folders, &layout.masked_files}) {
      for (const fs::path& path : *paths) {
        if (std::find(earlier.masked_folders.begin(), earlier.masked_folders.end(), path) !=
                earlier.masked_folders.end() ||
            std::find(earlier.masked_files.begin(), earlier.masked_files.end(), path) != earlier.masked_files.end())
          continue;
        masks.push_back({path, paths == &layout.masked_folders, why_hidden(path, started.survey, site), started.started_at});
      }
    }
  }
  for (MaskedLater& mask : started.sandbox->masked_later()) masks.push_back(std::move(mask));
  for (const MaskedLater& mask : masks) {
    const std::string path = shown(mask.path, site);
    bool listed = std::any_of(record.masked_later.begin(), record.masked_later.end(),
                              [&](const LateMaskRecord& earlier) { return earlier.path == path; });
    if (listed) continue;
    ++record.masked_later_total;
    if (record.masked_later.size() < SandboxRecord::k_max_listed) {
      record.masked_later.push_back({path, mask.why, during, format_utc(mask.first_masked)});
    }
  }
}

std::vector<std::string> removed_warnings(const StartedSandbox& started, const SandboxSite& site) {
  std::vector<std::string> warnings;
  for (const RemovedLater& removed : started.sandbox->removed_later()) {
    warnings.push_back("removed " + shown(removed.path, site) + ", which a command created: rule '" + removed.why +
                       "' keeps it read-only, and a read-only path that did not exist cannot be created either");
  }
  return warnings;
}

PatchFilter patch_filter(const Policy& policy, const fs::path& workspace, const std::vector<fs::path>& protected_paths,
                         const Survey* survey) {
  DecisionContext context;
  context.workspace = workspace;
  context.protected_paths = protected_paths;
  return [&policy, context, survey](std::string_view relative) -> std::string {
    const fs::path absolute = context.workspace / fs::path(relative);
    PathVerdict verdict = classify_path(policy, absolute.string(), context);
    if (verdict.kind == PathClass::hidden) return "hidden by rule '" + verdict.rule + "'";
    if (verdict.kind == PathClass::read_only) {
      return verdict.rule == "protected path" ? "read-only: protected path" : "read-only: rule '" + verdict.rule + "'";
    }
    struct stat status {};
    if (::lstat(absolute.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) return "";
    if (survey == nullptr) {  // no survey knows the other names: one of them may be hidden
      return status.st_nlink > 1 ? "a file with another name, and no sandbox survey to tell whether one is hidden" : "";
    }
    if (const SurveyedPath* hidden = survey->hidden_file(FileIdentity{status.st_dev, status.st_ino})) {
      return "another name of a hidden file (" + hidden->relative + ")";
    }
    return "";
  };
}

PatchFilter baseline_filter(const Policy& policy, const fs::path& workspace,
                            const std::vector<fs::path>& protected_paths) {
  return patch_filter(policy, workspace, protected_paths, nullptr);
}

std::string why_unsandboxed(const SandboxSpec& spec) {
  if (spec.set_by.starts_with("--")) return spec.set_by;
  return "sandbox: off (" + spec.set_by + ")";
}

std::string unsandboxed_warning(const SandboxSpec& spec, std::size_t attempts) {
  std::string where = spec.set_by.starts_with("--") ? spec.set_by : spec.set_by + " says 'sandbox: off'";
  return "the sandbox is off for " + std::to_string(attempts) + (attempts == 1 ? " attempt" : " attempts") + " (" +
         where + "): their commands and checks run with agent-run's own access to files, network and processes";
}

std::optional<SandboxSpec> sandbox_flag(std::optional<bool> on) {
  if (!on) return std::nullopt;
  SandboxSpec spec;
  spec.mode = *on ? SandboxMode::bubblewrap : SandboxMode::off;
  spec.set_by = *on ? "--sandbox on" : "--sandbox off";
  return spec;
}

std::vector<std::string> unsandboxed_warnings(const std::vector<const AttemptPlan*>& plans,
                                              const std::optional<SandboxSpec>& flag) {
  std::map<std::string, std::pair<SandboxSpec, std::size_t>> off;  // by where it was said
  for (const AttemptPlan* plan : plans) {
    SandboxSpec spec = attempt_sandbox(*plan->task, *plan->policy, flag);
    if (spec.mode != SandboxMode::off) continue;
    auto [it, added] = off.try_emplace(spec.set_by, spec, 0);
    ++it->second.second;
  }
  std::vector<std::string> warnings;
  for (const auto& [where, counted] : off) warnings.push_back(unsandboxed_warning(counted.first, counted.second));
  return warnings;
}

std::optional<std::string> sandbox_off_refusal(const Policy& policy, const SandboxSpec& spec) {
  if (spec.mode != SandboxMode::off) return std::nullopt;
  const bool flag = spec.set_by.rfind("--", 0) == 0;  // "--sandbox off", else FILE:LINE of a sandbox: key
  return sandbox_off_problem(policy, flag ? "'" + spec.set_by + "'" : spec.set_by + ": 'sandbox: off'");
}

std::optional<std::string> sandbox_needed_but_off(const std::vector<AttemptPlan>& plans,
                                                  const std::optional<SandboxSpec>& flag) {
  for (const AttemptPlan& plan : plans) {
    if (auto refused = sandbox_off_refusal(*plan.policy, attempt_sandbox(*plan.task, *plan.policy, flag))) {
      return refused;
    }
  }
  return std::nullopt;
}

}  // namespace agent_run
