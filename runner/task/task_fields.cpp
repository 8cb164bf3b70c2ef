#include "task/task_fields.h"

#include "base/environment_names.h"
#include "base/files.h"
#include "base/json_schema.h"
#include "base/text.h"
#include "model/model_names.h"
#include "policy/policy_loader.h"
#include "policy/sandbox_reading.h"
#include "task/mcp_server_reading.h"

#include <algorithm>
#include <limits>

namespace agent_run {

namespace {

void read_model(const YamlNode& value, TaskReading& reading) {
  if (auto model = reading.checker.text(value, "model")) {
    if (auto known = check_model_name(*model); !known) reading.checker.add(value.mark, known.error().message);
    reading.task.model = *model;
    reading.set("model", value.mark);
  }
}

/// `replay: DIR`: where `model: replay` finds its recording, relative to the file that says it.
void read_replay(const YamlNode& value, TaskReading& reading) {
  if (auto folder = reading.checker.text(value, "replay")) {
    reading.task.replay = resolve_path(*folder, reading.folder);
    reading.set("replay", value.mark);
  }
}

void read_limits(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  if (!checker.check_map(value, "limits", {"turns", "tokens", "cost_usd", "time", "tool_timeout"})) return;
  Limits& limits = reading.task.limits;
  if (const YamlNode* turns = value.find("turns")) {
    if (auto number = checker.integer(*turns, "limits.turns", 1, std::numeric_limits<int>::max())) {
      limits.turns = static_cast<int>(*number);
      reading.set("limits.turns", turns->mark);
    }
  }
  if (const YamlNode* tokens = value.find("tokens")) {
    limits.tokens = checker.integer(*tokens, "limits.tokens", 1, std::numeric_limits<std::int64_t>::max());
    reading.set("limits.tokens", tokens->mark);
  }
  if (const YamlNode* cost = value.find("cost_usd")) {
    limits.cost_usd = checker.positive_number(*cost, "limits.cost_usd");
    reading.set("limits.cost_usd", cost->mark);
  }
  if (const YamlNode* time = value.find("time")) {
    if (auto duration = checker.duration(*time, "limits.time")) limits.time = *duration;
    reading.set("limits.time", time->mark);
  }
  if (const YamlNode* timeout = value.find("tool_timeout")) {
    if (auto duration = checker.duration(*timeout, "limits.tool_timeout")) limits.tool_timeout = *duration;
    reading.set("limits.tool_timeout", timeout->mark);
  }
}

void read_tools(const YamlNode& value, TaskReading& reading) {
  const std::vector<YamlNode>* items = reading.checker.list(value, "tools");
  if (!items) return;
  std::vector<std::string> tools;
  for (std::size_t i = 0; i < items->size(); ++i) {
    std::optional<std::string> tool = reading.checker.text((*items)[i], indexed("tools", i));
    // An MCP entry may be a pattern (`mcp__github__get_*`) or a whole server (`mcp__github`), as in a
    // policy rule's `tools:`; a built-in tool is named exactly.
    std::optional<std::string> problem = tool ? tool_pattern_problem(*tool) : std::nullopt;
    if (problem) reading.checker.add((*items)[i].mark, *problem);
    if (tool && !problem) tools.push_back(*tool);
  }
  if (tools.size() == items->size()) reading.task.tools = std::move(tools);
  reading.set("tools", value.mark);
}

void read_policy(const YamlNode& value, TaskReading& reading) {
  if (auto policy = reading.checker.text(value, "policy")) {
    reading.task.policy = resolve_path(*policy, reading.folder);
    reading.set("policy", value.mark);
  }
}

void read_diagnostics(const YamlNode& value, TaskReading& reading) {
  std::optional<std::string> choice = reading.checker.choice(value, "diagnostics", {"on", "off", "true", "false"});
  if (choice) reading.task.diagnostics = *choice == "on" || *choice == "true";
  reading.set("diagnostics", value.mark);
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
  reading.task.answers = AskUserAnswers{};  // a task's answers replace the configuration's
  for (std::size_t i = 0; i < items->size(); ++i) {
    read_answer((*items)[i], indexed("answers", i), i + 1 == items->size(), reading);
  }
  reading.set("answers", value.mark);
}

void read_sandbox(const YamlNode& value, TaskReading& reading) {
  if (auto sandbox = read_sandbox_spec(value, reading.checker)) reading.task.sandbox = *sandbox;
  reading.set("sandbox", value.mark);
}

void read_secrets(const YamlNode& value, TaskReading& reading) {
  auto names = reading.checker.text_list(value, "secrets");
  if (!names) return;
  for (std::size_t i = 0; i < names->size(); ++i) {
    const std::string& name = (*names)[i];
    if (!is_environment_name(name)) {
      reading.checker.add(value.items[i].mark,
                          "'" + indexed("secrets", i) + "' must be an environment variable name, got '" + name + "'");
    }
    std::vector<std::string>& secrets = reading.task.secrets;  // names add up: a task cannot unlist one
    if (std::find(secrets.begin(), secrets.end(), name) == secrets.end()) secrets.push_back(name);
  }
  reading.set("secrets", value.mark);
}

/// `web_search: custom`, or `{mode: custom, command: [ddgs, text, -q, "{query}", ...]}`.
void read_web_search(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  reading.set("web_search", value.mark);
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

/// `env: {NAME: value, ...}`: plain values (a number or true is written as it reads).
void read_env(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  if (!value.is_map()) {
    checker.add(value.mark, "'env' must be a map of variable names to values, got " + describe_yaml(value));
    return;
  }
  for (const YamlEntry& entry : value.entries) {
    const std::string name = "env." + entry.key;
    if (!is_environment_name(entry.key)) {
      checker.add(entry.key_mark, "'" + name + "': '" + entry.key + "' is not an environment variable name");
      continue;
    }
    if (!entry.value.is_scalar()) {
      checker.add(entry.value.mark, "'" + name + "' must be a string, got " + describe_yaml(entry.value));
      continue;
    }
    reading.task.env[entry.key] = EnvVariable{entry.value.scalar, checker.where(entry.value.mark)};
    reading.set(name, entry.value.mark);
  }
}

void read_system_prompt(const YamlNode& value, TaskReading& reading) {
  if (auto text = reading.checker.text(value, "system_prompt")) {
    reading.task.system_prompt = *text;
    reading.set("system_prompt", value.mark);
  }
}

void read_instructions(const YamlNode& value, TaskReading& reading) {
  if (auto text = reading.checker.text(value, "instructions")) {
    reading.task.instructions = *text;
    reading.set("instructions", value.mark);
  }
}

/// `instruction_files: [AGENTS.md, CLAUDE.md]` (file names at the workspace root), or `[]` for none.
void read_instruction_files(const YamlNode& value, TaskReading& reading) {
  auto names = reading.checker.text_list(value, "instruction_files");
  if (!names) return;
  for (std::size_t i = 0; i < names->size(); ++i) {
    const std::filesystem::path name((*names)[i]);
    if (name.is_absolute() || name.lexically_normal().string().starts_with("..")) {
      reading.checker.add(value.items[i].mark, "'" + indexed("instruction_files", i) +
                                                   "' must be a path inside the workspace, got '" + (*names)[i] + "'");
    }
  }
  reading.task.instruction_files = std::move(*names);
  reading.set("instruction_files", value.mark);
}

/// `context: {window, threshold, target, keep_turns, compaction}`.
void read_context(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  if (!checker.check_map(value, "context", {"window", "threshold", "target", "keep_turns", "compaction"})) return;
  ContextSettings& context = reading.task.context;
  if (const YamlNode* window = value.find("window")) {
    if (auto tokens = checker.integer(*window, "context.window", 1000, std::numeric_limits<std::int64_t>::max())) {
      context.window = *tokens;
    }
    reading.set("context.window", window->mark);
  }
  for (auto [key, field] : {std::pair{"threshold", &context.threshold}, std::pair{"target", &context.target}}) {
    if (const YamlNode* share = value.find(key)) {
      if (auto read = checker.share(*share, std::string("context.") + key)) *field = *read;
      reading.set(std::string("context.") + key, share->mark);
    }
  }
  if (const YamlNode* keep = value.find("keep_turns")) {
    if (auto turns = checker.integer(*keep, "context.keep_turns", 0, 1000))
      context.keep_turns = static_cast<int>(*turns);
    reading.set("context.keep_turns", keep->mark);
  }
  if (const YamlNode* compaction = value.find("compaction")) {
    auto choice = checker.choice(*compaction, "context.compaction", {"on", "off", "true", "false"});
    if (choice) context.compaction = *choice == "on" || *choice == "true";
    reading.set("context.compaction", compaction->mark);
  }
  if (context.target >= context.threshold) {
    checker.add(value.mark,
                "'context.target' must be below 'context.threshold' (pruning brings the conversation "
                "down from the threshold to the target)");
  }
}

/// `check_feedback: N`, or `{rounds: N, output_bytes: B}`.
void read_check_feedback(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  CheckFeedback& feedback = reading.task.check_feedback;
  reading.set("check_feedback", value.mark);
  if (value.is_scalar()) {
    if (auto rounds = checker.integer(value, "check_feedback", 0, 100)) feedback.rounds = static_cast<int>(*rounds);
    return;
  }
  if (!checker.check_map(value, "check_feedback", {"rounds", "output_bytes"})) return;
  if (const YamlNode* rounds = value.find("rounds")) {
    if (auto number = checker.integer(*rounds, "check_feedback.rounds", 0, 100)) {
      feedback.rounds = static_cast<int>(*number);
    }
  }
  if (const YamlNode* bytes = value.find("output_bytes")) {
    if (auto number = checker.integer(*bytes, "check_feedback.output_bytes", 100, 1 << 20)) {
      feedback.output_bytes = static_cast<std::size_t>(*number);
    }
  }
}

/// `output_schema:` a JSON Schema as YAML, or the path of a JSON file holding one.
void read_output_schema(const YamlNode& value, TaskReading& reading) {
  YamlChecker& checker = reading.checker;
  std::optional<Json> schema;
  if (value.is_scalar()) {
    const std::filesystem::path file = resolve_path(value.scalar, reading.folder);
    auto text = read_file(file);
    auto parsed = text ? parse_json(*text) : Expected<Json>(text.error());
    if (!parsed) {
      checker.add(value.mark,
                  "'output_schema': cannot read a JSON schema from '" + value.scalar + "': " + parsed.error().message);
      return;
    }
    schema = std::move(*parsed);
  } else if (value.is_map()) {
    schema = yaml_to_json(value);
  } else {
    checker.add(value.mark,
                "'output_schema' must be a JSON Schema (a map) or a .json file, got " + describe_yaml(value));
    return;
  }
  if (auto compiled = JsonSchema::compile(*schema); !compiled) {
    checker.add(value.mark, "'output_schema': " + compiled.error().message);
    return;
  }
  reading.task.output_schema = std::move(schema);
  reading.set("output_schema", value.mark);
}

/// `mcp_servers: {NAME: {command: [...]} | {url: ...}}`: the whole map replaces the configuration's.
void read_mcp_servers_key(const YamlNode& value, TaskReading& reading) {
  reading.task.mcp_servers = read_mcp_servers(value, reading.checker, reading.checker.file());
  reading.set("mcp_servers", value.mark);
}

constexpr TaskField k_shared_fields[] = {
    {"model", read_model},
    {"replay", read_replay},
    {"limits", read_limits},
    {"tools", read_tools},
    {"policy", read_policy},
    {"diagnostics", read_diagnostics},
    {"mcp_servers", read_mcp_servers_key},
    {"answers", read_answers},
    {"sandbox", read_sandbox},
    {"secrets", read_secrets},
    {"web_search", read_web_search},
    {"env", read_env},
    {"system_prompt", read_system_prompt},
    {"instructions", read_instructions},
    {"instruction_files", read_instruction_files},
    {"context", read_context},
    {"check_feedback", read_check_feedback},
    {"output_schema", read_output_schema},
};

}  // namespace

std::span<const TaskField> shared_task_fields() { return k_shared_fields; }

void check_shared_fields(const YamlNode& root, TaskReading& reading) {
  const YamlNode* tools = root.find("tools");
  const auto& listed = reading.task.tools;
  if (tools && listed && std::find(listed->begin(), listed->end(), "web_search") != listed->end() &&
      reading.task.web_search.empty()) {
    reading.checker.add(tools->mark,
                        "'tools' lists web_search, which needs 'web_search: custom' (the search command "
                        "to run, ddgs by default)");
  }
  const YamlNode* env = root.find("env");
  if (env == nullptr || !env->is_map()) return;
  const std::vector<std::string>& secrets = reading.task.secrets;
  for (const YamlEntry& entry : env->entries) {
    if (!looks_secret(entry.key) || std::find(secrets.begin(), secrets.end(), entry.key) != secrets.end()) continue;
    reading.checker.add(entry.key_mark, "'env." + entry.key + "' looks like a secret: list '" + entry.key +
                                            "' under 'secrets:' too (then only setup and the checks get it), "
                                            "or give the agent's commands a name that does not look secret");
  }
}

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

}  // namespace agent_run
