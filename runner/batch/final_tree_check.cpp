#include "batch/final_tree_check.h"

#include "base/safe_open.h"
#include "batch/attempt_session.h"
#include "diagnostics/problems.h"

#include <unistd.h>

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

}  // namespace

RecheckFile final_tree_recheck(const Task& task, const Workspace& workspace, const AttemptSettings& settings,
                               const AttemptSandbox* sandbox) {
  if (!settings.diagnostics || !task.diagnostics) return {};
  std::error_code ec;
  std::filesystem::path root = std::filesystem::weakly_canonical(workspace.root(), ec);
  if (ec) root = workspace.root();
  return [&task, &workspace, checker = settings.diagnostics, environment = tool_environment(task, settings), sandbox,
          root](const std::string& path) -> Expected<FinalFileCheck> {
    auto now = read_final(root, path);
    if (!now) return now.error();
    if (!*now) return FinalFileCheck{};  // removed or moved away: nothing of it is left
    auto before = workspace.baseline_file(path);
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
