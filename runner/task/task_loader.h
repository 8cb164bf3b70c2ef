#pragma once

#include "base/expected.h"
#include "task/task.h"

#include <filesystem>
#include <string_view>

namespace agent_run {

/// Reads, parses and validates one task file over `defaults` (the run-wide configuration's, else
/// the built-in ones): every key the file sets replaces or merges into them (task_fields.h). The
/// error names every problem found, one per line, each as `FILE:LINE:COL: what is wrong` with the
/// bad value and a "did you mean" where it helps.
Expected<Task> load_task_file(const std::filesystem::path& path, const Task& defaults = Task{});

/// The same from text already read; `source` names the file in messages and anchors relative paths.
Expected<Task> load_task(std::string_view yaml_text, const std::filesystem::path& source,
                         const Task& defaults = Task{});

/// The warning for a task without `checks:`: what passing then means, and how to make it an error.
std::string no_checks_warning(const Task& task);

}  // namespace agent_run
