#include "batch/final_tree_check.h"

#include "base/files.h"
#include "base/safe_open.h"
#include "batch/attempt_session.h"
#include "diagnostics/problems.h"

#include <unistd.h>

#include <memory>

namespace agent_run {

namespace {

constexpr std::size_t k_max_bytes = 16 * 1024 * 1024;  // a source file the checkers would read

/// The regular file `relative` beneath `workspace` (no link followed, a FIFO never opened); nullopt
/// when nothing is there; an error when it cannot be read whole.
Expected<std::optional<std::string>> read_final(const std::filesystem::path& workspace, const std::string& relative) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(workspace / relative, ec))) {
    return std::optional<std::string>();
  }
  auto file = open_regular_file(workspace, relative);
  if (!file) return file.error();
  std::string text;
  char buffer[8192];
  for (ssize_t got; (got = ::read(file->fd.get(), buffer, sizeof buffer)) > 0;) {
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > k_max_bytes) return make_error("'" + relative + "' is larger than 16 MiB");
  }
  return std::optional<std::string>(std::move(text));
}

/// The tree the agent started from, written out once (Workspace::export_baseline) when a re-check
/// first asks for a file of it, and removed with the last copy of the re-check.
class BaselineCopy {
 public:
  BaselineCopy(const Workspace& workspace, std::filesystem::path parent)
      : m_workspace(workspace), m_parent(std::move(parent)) {}
  ~BaselineCopy() {
    std::error_code ec;
    if (!m_folder.empty()) std::filesystem::remove_all(m_folder, ec);
  }
  BaselineCopy(const BaselineCopy&) = delete;
  BaselineCopy& operator=(const BaselineCopy&) = delete;

  /// What `relative` held then; nullopt when it held no file there (one the agent created).
  Expected<std::optional<std::string>> file(const std::string& relative) {
    if (m_folder.empty()) {
      auto made = make_unique_folder(m_parent, "agent-run-final-baseline-");
      if (!made) return made.error();
      m_folder = *made;
      if (auto exported = m_workspace.export_baseline(m_folder); !exported) {
        return make_error("cannot write the baseline tree: " + exported.error().message);
      }
    }
    return read_final(m_folder, relative);
  }

 private:
  const Workspace& m_workspace;
  std::filesystem::path m_parent;
  std::filesystem::path m_folder;  // empty until written
};

}  // namespace

RecheckFile final_tree_recheck(const Task& task, const Workspace& workspace, const AttemptSettings& settings,
                               const AttemptSandbox* sandbox) {
  if (!settings.diagnostics || !task.diagnostics) return {};
  std::error_code ec;
  std::filesystem::path root = std::filesystem::weakly_canonical(workspace.root(), ec);
  if (ec) root = workspace.root();
  auto baseline = std::make_shared<BaselineCopy>(
      workspace, settings.scratch_folder.empty() ? std::filesystem::temp_directory_path() : settings.scratch_folder);
  return [&task, baseline, checker = settings.diagnostics, environment = tool_environment(task, settings), sandbox,
          root](const std::string& path) -> Expected<FinalFileCheck> {
    auto now = read_final(root, path);
    if (!now) return now.error();
    if (!*now) return FinalFileCheck{};  // removed or moved away: nothing of it is left
    auto before = baseline->file(path);
    if (!before) return before.error();
    EditCheckRequest request;
    request.workspace = root;
    request.file = root / path;
    request.before = std::move(*before);
    request.after = std::move(**now);
    request.environment = environment;
    request.sandbox = sandbox;
    request.budget = task.limits.tool_timeout;
    EditDiagnostics seen = checker->check_edit(request);
    if (seen.status != "clean" && seen.status != "problems") {
      std::string who = seen.checker.empty() ? std::string("no checker") : seen.checker;
      return make_error(who + " gave no answer (" + seen.status + (seen.note.empty() ? "" : ": " + seen.note) + ")");
    }
    FinalFileCheck found;
    found.problems = seen.problems;
    if (seen.compared) {  // else the checker could not check the baseline's content
      found.before_agent = problems_not_in(seen.problems, seen.introduced);
      found.before_agent->insert(found.before_agent->end(), seen.resolved.begin(), seen.resolved.end());
    }
    return found;
  };
}

}  // namespace agent_run
