#include "task/task_loader.h"

#include "base/digest.h"
#include "base/files.h"
#include "base/text.h"
#include "base/yaml_document.h"
#include "policy/policy_loader.h"
#include "policy/sandbox_reading.h"
#include "task/mcp_server_reading.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>
#include <vector>

namespace agent_run {

namespace {

/// What the field readers share while one task file is read.
struct TaskReading {
  YamlChecker& checker;
  Task& task;
  std::filesystem::path folder;  // the task file's folder, absolute: relative paths start here
};

/// Reads the value of one top-level key into the task, recording problems.
using FieldReader = void (*)(const YamlNode& value, TaskReading& reading);

/// One top-level key of the task format and its reader.
struct TaskField {
  const char* key;
  FieldReader read;
};

/// `value` made absolute against `folder` and lexically normal, without a trailing separator.
std::filesystem::path resolve_path(const std::string& value, const std::filesystem::path& folder) {
  std::filesystem::path path(value);
  if (path.is_relative()) path = folder / path;
  path = path.lexically_normal();
  if (!path.has_filename() && path != path.root_path()) path = path.parent_path();
  return path;
}

std::string indexed(std::string_view name, std::size_t index) {
  return std::string(name) + "[" + std::to_string(index) + "]";
}

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
  }
  if (const YamlNode* ref = value.find("ref")) {
    if (auto text = checker.text(*ref, "workspace.ref")) workspace.ref = *text;
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

void read_model(const YamlNode& value, TaskReading& reading) {
  if (auto model = reading.checker.text(value, "model")) reading.task.model = *model;
}

void read_limits(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  if (!checker.check_map(value, "limits", {"turns", "tokens", "cost_usd", "time", "tool_timeout"})) return;
  Limits& limits = reading.task.limits;
  if (const YamlNode* turns = value.find("turns")) {
    if (auto number = checker.integer(*turns, "limits.turns", 1, std::numeric_limits<int>::max())) {
      limits.turns = static_cast<int>(*number);
    }
  }
  if (const YamlNode* tokens = value.find("tokens")) {
    limits.tokens = checker.integer(*tokens, "limits.tokens", 1, std::numeric_limits<std::int64_t>::max());
  }
  if (const YamlNode* cost = value.find("cost_usd")) {
    limits.cost_usd = checker.positive_number(*cost, "limits.cost_usd");
  }
  if (const YamlNode* time = value.find("time")) {
    if (auto duration = checker.duration(*time, "limits.time")) limits.time = *duration;
  }
  if (const YamlNode* timeout = value.find("tool_timeout")) {
    if (auto duration = checker.duration(*timeout, "limits.tool_timeout")) limits.tool_timeout = *duration;
  }
}

void read_tools(const YamlNode& value, TaskReading& reading) {
  const std::vector<YamlNode>* items = reading.checker.list(value, "tools");
  if (!items) return;
  std::vector<std::string> tools;
  for (std::size_t i = 0; i < items->size(); ++i) {
    std::optional<std::string> tool = reading.checker.text((*items)[i], indexed("tools", i));
    std::optional<std::string> problem = tool ? tool_name_problem(*tool) : std::nullopt;
    if (problem) reading.checker.add((*items)[i].mark, *problem);
    if (tool && !problem) tools.push_back(*tool);
  }
  if (tools.size() == items->size()) reading.task.tools = std::move(tools);
}

void read_policy(const YamlNode& value, TaskReading& reading) {
  if (auto policy = reading.checker.text(value, "policy")) reading.task.policy = resolve_path(*policy, reading.folder);
}

void read_diagnostics(const YamlNode& value, TaskReading& reading) {
  std::optional<std::string> choice = reading.checker.choice(value, "diagnostics", {"on", "off", "true", "false"});
  if (choice) reading.task.diagnostics = *choice == "on" || *choice == "true";
}

/// `- no_new_diagnostics: true`: the attempt fails when its edits leave problems they introduced.
void read_no_new_diagnostics(const YamlNode& item, const std::string& name, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  const YamlNode& value = *item.find("no_new_diagnostics");
  if (item.find("run")) {
    checker.add(item.mark, "'" + name + "' has both 'run' and 'no_new_diagnostics'; make them two checks");
    return;
  }
  std::optional<std::string> choice = checker.choice(value, name + ".no_new_diagnostics", {"true", "false"});
  if (choice == "true" && !reading.task.diagnostics) {
    checker.add(value.mark,
                "'" + name + ".no_new_diagnostics' needs diagnostics, but this task sets 'diagnostics: off'");
  } else if (choice == "true") {
    reading.task.checks.push_back(Check{"", true});
  }
}

void read_checks(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  const std::vector<YamlNode>* items = checker.list(value, "checks");
  if (!items) return;
  for (std::size_t i = 0; i < items->size(); ++i) {
    const YamlNode& item = (*items)[i];
    std::string name = indexed("checks", i);
    if (!checker.check_map(item, name, {"run", "no_new_diagnostics"})) continue;
    if (item.find("no_new_diagnostics")) {
      read_no_new_diagnostics(item, name, reading);
      continue;
    }
    const YamlNode* run = item.find("run");
    if (!run && !has_misspelling_of(item, "run", {"run", "no_new_diagnostics"})) {
      checker.add(item.mark, "'" + name +
                                 "' needs 'run' (the command that decides whether the attempt passed) or "
                                 "'no_new_diagnostics: true'");
    } else if (auto command = run ? checker.text(*run, name + ".run") : std::nullopt) {
      reading.task.checks.push_back(Check{*command});
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

/// One `{tool: NAME, input: {...}}` of a scripted turn.
std::optional<ScriptedCall> read_call(const YamlNode& value, const std::string& name, YamlChecker& checker) {
  if (!checker.check_map(value, name, {"tool", "input"})) return std::nullopt;
  ScriptedCall call;
  const YamlNode* tool = value.find("tool");
  std::optional<std::string> tool_name;
  if (!tool && !has_misspelling_of(value, "tool", {"tool", "input"})) {
    checker.add(value.mark, "'" + name + "' needs 'tool': the name of the tool to call");
  } else if (tool) {
    tool_name = checker.text(*tool, name + ".tool");
  }
  const YamlNode* input = value.find("input");
  if (input && !input->is_map() && !input->is_null()) {
    checker.add(input->mark, "'" + name + ".input' must be a map, got " + describe_yaml(*input));
    return std::nullopt;
  }
  if (!tool_name) return std::nullopt;
  call.tool = *tool_name;
  if (input && input->is_map()) call.input = yaml_to_json(*input);
  return call;
}

/// One turn of the scripted model: `say`, `call` and `calls`, at least one of them.
void read_turn(const YamlNode& value, const std::string& name, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  if (!checker.check_map(value, name, {"say", "call", "calls"})) return;
  ScriptedTurn turn;
  if (const YamlNode* say = value.find("say")) turn.say = checker.text(*say, name + ".say").value_or("");
  if (const YamlNode* call = value.find("call")) {
    if (auto read = read_call(*call, name + ".call", checker)) turn.calls.push_back(std::move(*read));
  }
  if (const YamlNode* calls = value.find("calls")) {
    if (const std::vector<YamlNode>* items = checker.list(*calls, name + ".calls")) {
      for (std::size_t i = 0; i < items->size(); ++i) {
        if (auto read = read_call((*items)[i], indexed(name + ".calls", i), checker)) {
          turn.calls.push_back(std::move(*read));
        }
      }
    }
  }
  if (value.entries.empty()) checker.add(value.mark, "'" + name + "' needs 'say', 'call' or 'calls'");
  reading.task.script.push_back(std::move(turn));
}

void read_script(const YamlNode& value, TaskReading& reading) {
  const std::vector<YamlNode>* items = reading.checker.list(value, "script");
  if (!items) return;
  for (std::size_t i = 0; i < items->size(); ++i) read_turn((*items)[i], indexed("script", i), reading);
}

/// One `{question: RE2, choose: TEXT}` or the final `{otherwise: fail|first|deny}` of `answers:`.
void read_answer(const YamlNode& item, const std::string& name, bool last, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  if (!checker.check_map(item, name, {"question", "choose", "otherwise"})) return;
  if (const YamlNode* otherwise = item.find("otherwise")) {
    if (!last || item.entries.size() > 1) {
      checker.add(item.mark, "'" + name + ".otherwise' must be alone in the last entry of 'answers'");
    }
    auto choice = checker.choice(*otherwise, name + ".otherwise", {"fail", "first", "deny"});
    if (choice == "fail") reading.task.answers.otherwise = AnswerFallback::fail;
    if (choice == "first") reading.task.answers.otherwise = AnswerFallback::first;
    return;
  }
  const YamlNode* question = item.find("question");
  const YamlNode* choose = item.find("choose");
  if (!question || !choose) {
    const std::vector<std::string> keys = {"question", "choose", "otherwise"};
    bool misspelt = (!question && has_misspelling_of(item, "question", keys)) ||
                    (!choose && has_misspelling_of(item, "choose", keys));
    if (!misspelt) checker.add(item.mark, "'" + name + "' needs 'question' (an RE2 pattern) and 'choose' (the answer)");
    return;
  }
  auto pattern = checker.text(*question, name + ".question");
  auto answer = checker.text(*choose, name + ".choose");
  auto problem = pattern ? question_pattern_problem(*pattern) : std::nullopt;
  if (problem) checker.add(question->mark, "'" + name + ".question' is not a valid RE2 pattern: " + *problem);
  if (pattern && answer && !problem) reading.task.answers.rules.push_back(AnswerRule{*pattern, *answer});
}

void read_answers(const YamlNode& value, TaskReading& reading) {
  const std::vector<YamlNode>* items = reading.checker.list(value, "answers");
  if (!items) return;
  for (std::size_t i = 0; i < items->size(); ++i) {
    read_answer((*items)[i], indexed("answers", i), i + 1 == items->size(), reading);
  }
}

void read_sandbox(const YamlNode& value, TaskReading& reading) {
  if (auto sandbox = read_sandbox_spec(value, reading.checker)) reading.task.sandbox = *sandbox;
}

bool is_environment_name(const std::string& name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

void read_secrets(const YamlNode& value, TaskReading& reading) {
  auto names = reading.checker.text_list(value, "secrets");
  if (!names) return;
  for (std::size_t i = 0; i < names->size(); ++i) {
    if (!is_environment_name((*names)[i])) {
      reading.checker.add(value.items[i].mark, "'" + indexed("secrets", i) +
                                                   "' must be an environment variable name, got '" + (*names)[i] + "'");
    }
  }
  reading.task.secrets = std::move(*names);
}

/// `web_search: custom`, or `{mode: custom, command: [ddgs, text, -q, "{query}", ...]}`.
void read_web_search(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  if (value.is_scalar()) {
    if (checker.choice(value, "web_search", {"custom"})) reading.task.web_search = default_web_search_command();
    return;
  }
  if (!checker.check_map(value, "web_search", {"mode", "command"})) return;
  const YamlNode* mode = value.find("mode");
  if (!mode) {
    checker.add(value.mark, "'web_search' needs 'mode: custom'");
    return;
  }
  if (!checker.choice(*mode, "web_search.mode", {"custom"})) return;
  reading.task.web_search = default_web_search_command();
  if (const YamlNode* command = value.find("command")) {
    auto words = checker.text_list(*command, "web_search.command");
    if (words && words->empty()) checker.add(command->mark, "'web_search.command' must not be empty");
    if (words && !words->empty()) reading.task.web_search = std::move(*words);
  }
}

void read_mcp_servers_key(const YamlNode& value, TaskReading& reading) {
  reading.task.mcp_servers = read_mcp_servers(value, reading.checker, reading.task.source.string());
}

/// The task format's top-level keys, in the order ARCHITECTURE.md lists them.
constexpr TaskField k_task_fields[] = {
    {"id", read_id},
    {"description", read_description},
    {"prompt", read_prompt},
    {"workspace", read_workspace},
    {"setup", read_setup},
    {"model", read_model},
    {"limits", read_limits},
    {"tools", read_tools},
    {"policy", read_policy},
    {"diagnostics", read_diagnostics},
    {"mcp_servers", read_mcp_servers_key},
    {"checks", read_checks},
    {"repeat", read_repeat},
    {"script", read_script},
    {"commit", read_commit},
    {"answers", read_answers},
    {"sandbox", read_sandbox},
    {"secrets", read_secrets},
    {"web_search", read_web_search},
};

void read_task(const YamlNode& root, TaskReading& reading) {
  std::vector<std::string> known;
  for (const TaskField& field : k_task_fields) known.emplace_back(field.key);
  if (!reading.checker.check_map(root, "", known)) return;
  for (const TaskField& field : k_task_fields) {
    if (const YamlNode* value = root.find(field.key)) field.read(*value, reading);
  }
  const YamlNode* tools = root.find("tools");
  const auto& listed = reading.task.tools;
  if (tools && listed && std::find(listed->begin(), listed->end(), "web_search") != listed->end() &&
      reading.task.web_search.empty()) {
    reading.checker.add(tools->mark,
                        "'tools' lists web_search, which needs 'web_search: custom' (the search command "
                        "to run, ddgs by default)");
  }
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

std::vector<std::string> default_web_search_command() {
  return {"ddgs", "text", "-q", "{query}", "-m", "{max_results}"};
}

Expected<Task> load_task(std::string_view yaml_text, const std::filesystem::path& source) {
  Task task;
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

Expected<Task> load_task_file(const std::filesystem::path& path) {
  Expected<std::string> text = read_file(path);
  if (!text) return text.error();
  return load_task(*text, path);
}

}  // namespace agent_run
