#include "task/task_loader.h"

#include "base/digest.h"
#include "base/files.h"
#include "base/text.h"
#include "base/yaml_document.h"
#include "task/script_check.h"
#include "task/script_reading.h"
#include "task/task_fields.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace agent_run {

namespace {

void read_id(const YamlNode& value, TaskReading& reading) {
  std::optional<std::string> id = reading.checker.text(value, "id");
  if (id && !is_identifier(*id)) {
    reading.checker.add(value.mark, "'id' must be letters, digits, '.', '_' or '-', got " + describe_yaml(value));
  } else if (id) {
    reading.task.id = *id;
  }
}

void read_description(const YamlNode& value, TaskReading& reading) {
  if (auto description = reading.checker.text(value, "description")) reading.task.description = *description;
}

void read_prompt(const YamlNode& value, TaskReading& reading) {
  std::optional<std::string> prompt = reading.checker.text(value, "prompt");
  if (prompt && trim(*prompt).empty()) {
    reading.checker.add(value.mark, "'prompt' must not be empty");
  } else if (prompt) {
    reading.task.prompt = *prompt;
  }
}

void read_workspace(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  if (!checker.check_map(value, "workspace", {"repo", "ref", "isolation"})) return;
  WorkspaceSpec& workspace = reading.task.workspace;
  if (const YamlNode* repo = value.find("repo")) {
    if (auto text = checker.text(*repo, "workspace.repo")) workspace.repo = resolve_path(*text, reading.folder);
    reading.set("workspace.repo", repo->mark);
  }
  if (const YamlNode* ref = value.find("ref")) {
    if (auto text = checker.text(*ref, "workspace.ref")) workspace.ref = *text;
    reading.set("workspace.ref", ref->mark);
  }
  if (const YamlNode* isolation = value.find("isolation")) {
    std::optional<std::string> choice =
        checker.choice(*isolation, "workspace.isolation", {"worktree", "copy", "in-place"});
    if (choice == "worktree") workspace.isolation = Isolation::worktree;
    if (choice == "copy") workspace.isolation = Isolation::copy;
    if (choice == "in-place") workspace.isolation = Isolation::in_place;
  }
}

void read_setup(const YamlNode& value, TaskReading& reading) {
  if (auto setup = reading.checker.text_list(value, "setup")) reading.task.setup = std::move(*setup);
}

/// `checker:` (a name of project_checker_names()) or `command:` beside `no_new_diagnostics: project`.
ProjectCheckerChoice read_project_checker(const YamlNode& item, const std::string& name, YamlChecker& checker) {
  ProjectCheckerChoice choice;
  const YamlNode* named = item.find("checker");
  const YamlNode* command = item.find("command");
  if (named && command) {
    checker.add(command->mark, "'" + name + "' has both 'checker' and 'command'; give one");
    return choice;
  }
  if (named) choice.checker = checker.choice(*named, name + ".checker", project_checker_names()).value_or("");
  if (command) choice.command = checker.text(*command, name + ".command").value_or("");  // never empty
  return choice;
}

/// `- no_new_diagnostics: true`: the attempt fails when its edits leave problems they introduced;
/// `- no_new_diagnostics: project`: when the project's own checker finds problems the baseline did not have.
void read_no_new_diagnostics(const YamlNode& item, const std::string& name, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  const YamlNode& value = *item.find("no_new_diagnostics");
  if (item.find("run")) {
    checker.add(item.mark, "'" + name + "' has both 'run' and 'no_new_diagnostics'; make them two checks");
    return;
  }
  if (const YamlNode* during = item.find("during")) {
    checker.add(during->mark, "'" + name + ".during' is for 'run' checks; no_new_diagnostics already judges each edit");
    return;
  }
  std::optional<std::string> choice =
      checker.choice(value, name + ".no_new_diagnostics", {"true", "false", "project"});
  if (choice == "project") {
    Check check;
    check.project = read_project_checker(item, name, checker);
    reading.set(name + ".no_new_diagnostics", value.mark);  // where a missing checker is reported
    if (const YamlNode* named = item.find("checker")) reading.set(name + ".checker", named->mark);
    reading.task.checks.push_back(std::move(check));
    return;
  }
  for (const char* key : {"checker", "command"}) {
    if (const YamlNode* misplaced = item.find(key)) {
      checker.add(misplaced->mark, "'" + name + "." + key + "' is for 'no_new_diagnostics: project'");
      return;
    }
  }
  if (choice == "true" && !reading.task.diagnostics) {
    checker.add(value.mark,
                "'" + name + ".no_new_diagnostics' needs diagnostics, but this task sets 'diagnostics: off'");
  } else if (choice == "true") {
    reading.task.checks.push_back(Check{"", true});
  }
}

/// `during: edit` (also after each edit_file/write_file) or `during: finish` (the default: after the agent stops).
bool checks_after_edits(const YamlNode& item, const std::string& name, YamlChecker& checker) {
  const YamlNode* during = item.find("during");
  return during && checker.choice(*during, name + ".during", {"finish", "edit"}) == "edit";
}

void read_checks(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  const std::vector<YamlNode>* items = checker.list(value, "checks");
  if (!items) return;
  for (std::size_t i = 0; i < items->size(); ++i) {
    const YamlNode& item = (*items)[i];
    std::string name = indexed("checks", i);
    if (!checker.check_map(item, name, {"run", "no_new_diagnostics", "during", "checker", "command"})) continue;
    if (item.find("no_new_diagnostics")) {
      read_no_new_diagnostics(item, name, reading);
      continue;
    }
    const YamlNode* run = item.find("run");
    if (const YamlNode* misplaced = item.find("checker") ? item.find("checker") : item.find("command")) {
      checker.add(misplaced->mark, "'" + name + "." + (item.find("checker") ? "checker" : "command") +
                                       "' is for 'no_new_diagnostics: project'");
      continue;
    }
    if (!run && !has_misspelling_of(item, "run", {"run", "no_new_diagnostics"})) {
      checker.add(item.mark, "'" + name +
                                 "' needs 'run' (the command that decides whether the attempt passed) or "
                                 "'no_new_diagnostics: true' or 'no_new_diagnostics: project'");
    } else if (auto command = run ? checker.text(*run, name + ".run") : std::nullopt) {
      reading.task.checks.push_back(Check{*command, false, checks_after_edits(item, name, checker)});
    }
  }
}

/// A problem with a `commit:` branch or message template: an unknown `{placeholder}`, or a branch
/// name git refuses.
std::optional<std::string> commit_template_problem(const std::string& text, std::string_view name, bool is_branch) {
  static const std::vector<std::string> k_placeholders = {"id", "n", "model"};
  for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    std::size_t close = text.find('}', open);
    std::string word = text.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1);
    if (close != std::string::npos &&
        std::find(k_placeholders.begin(), k_placeholders.end(), word) != k_placeholders.end()) {
      continue;
    }
    auto suggestion = closest_match(word, k_placeholders);
    return "'" + std::string(name) + "' has an unknown placeholder '{" + word + "}'" +
           (suggestion ? " (did you mean '{" + *suggestion + "}'?)" : " (known: {id}, {n}, {model})");
  }
  if (!is_branch) return std::nullopt;
  bool bad = text.front() == '-' || text.front() == '/' || text.back() == '/' || text.back() == '.' ||
             text.find("..") != std::string::npos || text.find("//") != std::string::npos ||
             text.find("@{") != std::string::npos || text.ends_with(".lock");
  for (char c : text)
    bad = bad || static_cast<unsigned char>(c) <= ' ' || std::string_view("~^:?*[\\").find(c) != std::string_view::npos;
  if (bad) return "'" + std::string(name) + "' is not a valid git branch name: '" + text + "'";
  return std::nullopt;
}

void read_commit(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  if (!checker.check_map(value, "commit", {"branch", "message"})) return;
  const YamlNode* branch = value.find("branch");
  if (!branch) {
    if (!has_misspelling_of(value, "branch", {"branch", "message"})) {
      checker.add(value.mark, "'commit' needs 'branch': the branch that receives a passed attempt's changes");
    }
    return;
  }
  CommitSpec commit;
  if (auto text = checker.text(*branch, "commit.branch")) commit.branch = *text;
  if (const YamlNode* message = value.find("message")) {
    if (auto text = checker.text(*message, "commit.message")) commit.message = *text;
  }
  if (commit.branch.empty()) return;
  if (auto problem = commit_template_problem(commit.branch, "commit.branch", true)) {
    checker.add(branch->mark, *problem);
    return;
  }
  if (const YamlNode* message = value.find("message"); message && !commit.message.empty()) {
    if (auto problem = commit_template_problem(commit.message, "commit.message", false)) {
      checker.add(message->mark, *problem);
      return;
    }
  }
  reading.task.commit = std::move(commit);
}

void read_repeat(const YamlNode& value, TaskReading& reading) {
  if (auto repeat = reading.checker.integer(value, "repeat", 1, std::numeric_limits<int>::max())) {
    reading.task.repeat = static_cast<int>(*repeat);
  }
}

void read_task_script(const YamlNode& value, TaskReading& reading) {
  reading.task.script = read_script(value, reading.checker);
  check_script_calls(value, reading);  // after read_task's shared keys: it reads `tools:` and `mcp_servers:`
}

/// The keys only a task file has, in the order ARCHITECTURE.md lists them; the rest are the shared
/// keys of task_fields.h.
constexpr TaskField k_task_fields[] = {
    {"id", read_id},         {"description", read_description}, {"prompt", read_prompt}, {"workspace", read_workspace},
    {"setup", read_setup},   {"checks", read_checks},           {"repeat", read_repeat}, {"script", read_task_script},
    {"commit", read_commit},
};

/// True for a file with a policy's top-level keys (`rules:` or `unmatched:`) and no `prompt:`.
bool looks_like_a_policy(const YamlNode& root) {
  return root.is_map() && !root.find("prompt") && (root.find("rules") || root.find("unmatched"));
}

void read_task(const YamlNode& root, TaskReading& reading) {
  if (looks_like_a_policy(root)) {
    reading.checker.add(root.mark, "this is a policy file (it has 'rules:'), not a task: pass it with --policy " +
                                       reading.task.source.string() + ", or name it in a task's 'policy:'");
    return;
  }
  std::vector<std::string> known;
  for (const TaskField& field : k_task_fields) known.emplace_back(field.key);
  for (const TaskField& field : shared_task_fields()) known.emplace_back(field.key);
  if (!reading.checker.check_map(root, "", known)) return;
  for (const TaskField& field : shared_task_fields()) {  // first: `checks` reads `diagnostics`
    if (const YamlNode* value = root.find(field.key)) field.read(*value, reading);
  }
  for (const TaskField& field : k_task_fields) {
    if (const YamlNode* value = root.find(field.key)) field.read(*value, reading);
  }
  check_shared_fields(root, reading);
  if (!root.find("prompt") && !has_misspelling_of(root, "prompt", known)) {
    reading.checker.add(root.mark, "missing required key 'prompt'");
  }
  if (!root.find("id")) {
    reading.task.id = reading.task.source.stem().string();
    if (!is_identifier(reading.task.id)) {
      reading.checker.add(root.mark, "the file name '" + reading.task.id +
                                         "' is not a valid task id (letters, digits, '.', '_' or '-'): set 'id'");
    }
  }
}

}  // namespace

std::string no_checks_warning(const Task& task) {
  return "task '" + task.id +
         "' has no checks: every attempt that ends without an error passes; add 'checks:' (--require-checks "
         "or require_checks: true in agent-run.yaml makes this an error)";
}

std::vector<std::string> default_web_search_command() {
  return {"ddgs", "text", "-q", "{query}", "-m", "{max_results}"};
}

std::vector<std::string> default_instruction_files() { return {"AGENTS.md", "CLAUDE.md"}; }

Expected<Task> load_task(std::string_view yaml_text, const std::filesystem::path& source, const Task& defaults) {
  Task task = defaults;
  task.source = source;
  task.source_sha256 = sha256_hex(yaml_text);
  YamlChecker checker(source.string());
  YamlDocument document = parse_yaml(yaml_text);
  checker.add_all(document.problems);
  if (document.root) {
    std::error_code ignored;
    TaskReading reading{checker, task, std::filesystem::absolute(source, ignored).parent_path()};
    read_task(*document.root, reading);
  }
  if (!checker.ok()) return checker.error();
  return task;
}

Expected<Task> load_task_file(const std::filesystem::path& path, const Task& defaults) {
  Expected<std::string> text = read_file(path);
  if (!text) return text.error();
  return load_task(*text, path, defaults);
}

}  // namespace agent_run
