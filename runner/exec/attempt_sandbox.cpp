#include "exec/attempt_sandbox.h"

#include "base/files.h"
#include "base/paths.h"
#include "base/json.h"
#include "base/text.h"
#include "exec/child_environment.h"
#include "exec/spawn.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// How long a holder may take to say it is ready, on a loaded machine: it answers in milliseconds,
/// or it has hung.
constexpr std::chrono::seconds k_start_patience{60};

/// What the holder said while starting: its info (stdout) and its stderr, read until it is ready or gone.
struct HolderStart {
  std::string info;
  std::string said;
  bool ready = false;
};

/// Reads the holder's stdout and stderr until stderr carries the ready line, or both are closed
/// (bubblewrap failed and exited), or the patience runs out.
HolderStart await_holder(const ChildProcess& holder) {
  HolderStart start;
  const auto give_up = std::chrono::steady_clock::now() + k_start_patience;
  bool out_open = true;
  bool err_open = true;
  while ((out_open || err_open) && !start.ready) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd fds[2] = {{out_open ? holder.stdout_fd() : -1, POLLIN, 0}, {err_open ? holder.stderr_fd() : -1, POLLIN, 0}};
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    char buffer[4096];
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) (i == 0 ? start.info : start.said).append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) (i == 0 ? out_open : err_open) = false;
    }
    start.ready = start.said.find(k_sandbox_ready) != std::string::npos;
  }
  return start;
}

Expected<pid_t> child_pid_of(const std::string& info) {
  auto json = parse_json(info);
  const Json* pid = json ? json->find("child-pid") : nullptr;
  if (pid == nullptr || !pid->is_integer()) return make_error("bubblewrap did not say its child's pid: " + info);
  return static_cast<pid_t>(pid->as_int());
}

Expected<fs::path> program(std::string_view name, const std::vector<std::string>& environment) {
  if (auto found = find_program(name, environment)) return *found;
  return make_error("cannot run '" + std::string(name) + "': No such file or directory");
}

/// The sandbox's folder: a private /tmp holding HOME, and the mask file (empty, mode 000).
Expected<void> make_sandbox_folder(const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(fs::path(folder) / "tmp" / "home", ec);
  if (ec) return make_error("cannot make the sandbox's folder in " + folder.string() + ": " + ec.message());
  AR_TRY(write_file_atomically(folder / "masked", ""));
  if (::chmod((folder / "masked").c_str(), 0) != 0) {
    return make_error("cannot make the sandbox's mask file: " + std::string(std::strerror(errno)));
  }
  return {};
}

/// Removes `folder` even where a command inside left a folder without permissions.
void remove_tree(const fs::path& folder) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) {
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
  }
  fs::remove_all(folder, ec);
}

std::string version_of(const fs::path& bubblewrap, const std::vector<std::string>& environment) {
  ProcessSpec spec;
  spec.argv = {bubblewrap.string(), "--version"};
  spec.environment = environment;
  spec.timeout = std::chrono::seconds(30);
  auto ran = run_process(spec);
  if (!ran || ran->exit_code != 0) return "";
  std::string text(trim(ran->output));
  std::size_t space = text.rfind(' ');
  return space == std::string::npos ? text : text.substr(space + 1);
}

}  // namespace

Expected<std::unique_ptr<AttemptSandbox>> AttemptSandbox::start(SandboxRequest request, const fs::path& parent,
                                                                const std::vector<std::string>& environment) {
  auto folder = make_unique_folder(parent, "sandbox-");
  if (!folder) return folder.error();
  std::unique_ptr<AttemptSandbox> sandbox(new AttemptSandbox());
  sandbox->m_folder = *folder;
  request.attempt_folder = *folder;
  // The programs the commands find on PATH, and the tool roots they are pointed at, work inside.
  std::optional<fs::path> home;
  if (auto value = environment_value(environment, "HOME"); value && value->starts_with('/')) home = fs::path(*value);
  for (ShownFolder& shown : program_folders(moved_into_sandbox(environment), home))
    request.shown.push_back(std::move(shown));
  AR_TRY(make_sandbox_folder(*folder));
  auto layout = make_sandbox_layout(request);
  if (!layout) return layout.error();
  sandbox->m_layout = std::move(*layout);
  AR_TRY(sandbox->launch(environment));
  return sandbox;
}

Expected<void> AttemptSandbox::launch(const std::vector<std::string>& environment) {
  auto bubblewrap = program("bwrap", environment);
  if (!bubblewrap) return bubblewrap.error();
  auto sleep = program("sleep", environment);
  auto nsenter = program("nsenter", environment);
  auto unshare = program("unshare", environment);
  auto setpriv = program("setpriv", environment);
  auto mount = program("mount", environment);
  for (const Expected<fs::path>* tool : {&sleep, &nsenter, &unshare, &setpriv, &mount}) {
    if (!*tool)
      return make_error(tool->error().message +
                        " (the sandbox needs util-linux's nsenter, unshare, setpriv and mount)");
  }
  m_tools = SandboxEntryTools{*nsenter, *unshare, *setpriv, "/bin/sh"};
  m_version = version_of(*bubblewrap, environment);
  auto holder = ChildProcess::spawn(holder_argv(m_layout, *bubblewrap, *sleep), m_layout.workspace, environment);
  if (!holder) return holder.error();
  m_holder = std::move(*holder);
  HolderStart start = await_holder(*m_holder);
  if (!start.ready) {
    std::string said(trim(start.said));
    stop();
    return make_error(said.empty()
                          ? "bubblewrap gave no sign of life within " + std::to_string(k_start_patience.count()) + "s"
                          : said);
  }
  auto child = child_pid_of(start.info);
  if (!child) {
    stop();
    return child.error();
  }
  m_holder_child = *child;
  m_tools.mount = *mount;
  return {};
}

AttemptSandbox::~AttemptSandbox() { stop(); }

void AttemptSandbox::stop() {
  if (m_holder) {
    m_holder->kill_and_reap();  // bubblewrap's --die-with-parent takes the sandbox down with it
    m_holder.reset();
    // What the last commands created read-only goes too, now that nothing inside can write.
    std::lock_guard lock(m_survey_mutex);
    if (m_resurvey) {
      SurveyRequest request = *m_resurvey;
      request.previous = &m_last_survey;
      if (auto survey = survey_paths(request)) {
        m_last_survey = std::move(*survey);
        remove_created_read_only();
      }
    }
  }
  m_holder_child = -1;
  if (!m_folder.empty()) remove_tree(m_folder);
  m_folder.clear();
}

std::vector<std::string> AttemptSandbox::inside_environment(const std::vector<std::string>& environment) const {
  // Secrets were decided by whoever built `environment` (child_environment): only the place
  // changes here, so the checks keep the task's secrets and the agent's commands still have none.
  return moved_into_sandbox(environment);
}

ProcessSpec AttemptSandbox::wrap(ProcessSpec spec) const {
  spec.argv = wrap_argv(spec.argv, spec.cwd.empty() ? m_layout.workspace : spec.cwd);
  spec.environment = inside_environment(spec.environment.value_or(std::vector<std::string>{}));
  if (spec.cwd.empty()) spec.cwd = m_layout.workspace;
  return spec;
}

std::vector<std::string> AttemptSandbox::wrap_argv(const std::vector<std::string>& argv, const fs::path& cwd) const {
  return entry_argv(m_holder_child, m_layout, m_tools, cwd, argv, late_masks());
}

void AttemptSandbox::mask_late_paths(SurveyRequest request, Survey at_start, const Clock& clock) {
  std::lock_guard lock(m_survey_mutex);
  m_resurvey = std::move(request);
  m_read_only_at_start.clear();
  for (const SurveyedPath& path : at_start.read_only) m_read_only_at_start.insert(path.relative);
  m_last_survey = std::move(at_start);
  m_clock = &clock;
}

std::vector<RemovedLater> AttemptSandbox::removed_later() const {
  std::lock_guard lock(m_survey_mutex);
  return m_removed_later;
}

void AttemptSandbox::remove_created_read_only() const {
  // Outer paths first: a new .github/ goes with the workflow in it.
  std::vector<const SurveyedPath*> created;
  for (const SurveyedPath& path : m_last_survey.read_only) {
    if (path.rule == "protected path" || !is_at_or_under(path.absolute, m_layout.workspace)) continue;
    if (path.absolute == m_layout.workspace || m_read_only_at_start.count(path.relative) != 0) continue;
    created.push_back(&path);
  }
  std::sort(created.begin(), created.end(), [](const SurveyedPath* a, const SurveyedPath* b) {
    return a->absolute.native().size() < b->absolute.native().size();
  });
  std::vector<fs::path> removed;
  for (const SurveyedPath* path : created) {
    if (std::any_of(removed.begin(), removed.end(), [&](const fs::path& outer) { return is_at_or_under(path->absolute, outer); }))
      continue;
    std::error_code ec;
    fs::remove_all(path->absolute, ec);  // a link is removed, never followed
    if (ec) continue;
    removed.push_back(path->absolute);
    m_removed_later.push_back({path->absolute, path->rule, m_clock->wall_now()});
  }
  if (removed.empty()) return;
  std::erase_if(m_last_survey.read_only, [&](const SurveyedPath& path) {
    return std::any_of(removed.begin(), removed.end(), [&](const fs::path& outer) { return is_at_or_under(path.absolute, outer); });
  });
}

std::vector<MaskedLater> AttemptSandbox::masked_later() const {
  std::lock_guard lock(m_survey_mutex);
  return m_masked_later;
}

LateMasks AttemptSandbox::late_masks() const {
  LateMasks late;
  std::lock_guard lock(m_survey_mutex);
  if (!m_resurvey) return late;
  SurveyRequest request = *m_resurvey;
  request.previous = &m_last_survey;
  if (auto survey = survey_paths(request)) m_last_survey = std::move(*survey);  // else: the last one's
  remove_created_read_only();
  std::vector<MaskCandidate> candidates;
  for (const SurveyedPath& path : m_last_survey.hidden) candidates.push_back({path.absolute, path.rule});
  for (PlannedMask& mask : plan_masks(candidates, m_layout)) {
    const bool seen = std::any_of(m_masked_later.begin(), m_masked_later.end(),
                                  [&](const MaskedLater& earlier) { return earlier.path == mask.path; });
    if (!seen) m_masked_later.push_back({mask.path, mask.folder, mask.why, m_clock->wall_now()});
    (mask.folder ? late.folders : late.files).push_back(std::move(mask.path));
  }
  return late;
}

ProcessSpec in_attempt_sandbox(const AttemptSandbox* sandbox, ProcessSpec spec) {
  return sandbox ? sandbox->wrap(std::move(spec)) : spec;
}

}  // namespace agent_run
