#pragma once

#include "base/yaml_document.h"
#include "task/task.h"

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace agent_run {

/// What the field readers share while one file (a task file or agent-run.yaml) is read.
struct TaskReading {
  YamlChecker& checker;
  Task& task;
  std::filesystem::path folder;  // the file's folder, absolute: relative paths start here

  /// Records that `setting` (e.g. `limits.turns`) was set at `mark` of this file.
  void set(const std::string& setting, YamlMark mark) { task.origins[setting] = checker.where(mark); }
};

/// Reads the value of one top-level key into the task, recording problems and where it was set.
using FieldReader = void (*)(const YamlNode& value, TaskReading& reading);

/// One top-level key and its reader.
struct TaskField {
  const char* key;
  FieldReader read;
};

/// The keys a task file and the run-wide configuration share: model, replay, policy, limits, tools,
/// diagnostics, answers, sandbox, secrets, web_search, env, system_prompt, instructions,
/// instruction_files, context, check_feedback, output_schema. A value read over one already there
/// (the configuration's, under a task's) replaces it; `limits`, `context` and `env` are merged key
/// by key, and `secrets` adds names.
std::span<const TaskField> shared_task_fields();

/// Checks what the shared keys cannot check one at a time, once the file's keys (`root`) are read:
/// an `env:` name that looks like a secret must be listed under `secrets:`; `tools` listing
/// web_search needs `web_search: custom`.
void check_shared_fields(const YamlNode& root, TaskReading& reading);

/// `value` made absolute against `folder` and lexically normal, without a trailing separator.
std::filesystem::path resolve_path(const std::string& value, const std::filesystem::path& folder);

/// `name[index]`, for messages about list items.
std::string indexed(std::string_view name, std::size_t index);

}  // namespace agent_run
