#include "task/script_reading.h"

#include "task/task_fields.h"

#include <algorithm>
#include <limits>

namespace agent_run {

namespace {

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

/// A turn's `repeats: [1, 3]` (the attempts that play it) and `variants: [b]` (the scripted models).
void read_turn_scope(const YamlNode& value, const std::string& name, YamlChecker& checker, ScriptedTurn& turn) {
  if (const YamlNode* repeats = value.find("repeats")) {
    if (const std::vector<YamlNode>* items = checker.list(*repeats, name + ".repeats")) {
      for (std::size_t i = 0; i < items->size(); ++i) {
        auto n = checker.integer((*items)[i], indexed(name + ".repeats", i), 1, std::numeric_limits<int>::max());
        if (n) turn.repeats.push_back(static_cast<int>(*n));
      }
    }
  }
  if (const YamlNode* variants = value.find("variants")) {
    if (const std::vector<YamlNode>* items = checker.list(*variants, name + ".variants")) {
      for (std::size_t i = 0; i < items->size(); ++i) {
        if (auto variant = checker.text((*items)[i], indexed(name + ".variants", i))) turn.variants.push_back(*variant);
      }
    }
  }
}

/// One turn of the scripted model: `say`, `call` and `calls`, at least one of them; `repeats` and
/// `variants` narrow down where it is played.
void read_turn(const YamlNode& value, const std::string& name, YamlChecker& checker,
               std::vector<ScriptedTurn>& script) {
  if (!checker.check_map(value, name, {"say", "call", "calls", "repeats", "variants"})) return;
  ScriptedTurn turn;
  read_turn_scope(value, name, checker, turn);
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
  bool only_scope = std::all_of(value.entries.begin(), value.entries.end(), [](const YamlEntry& entry) {
    return entry.key == "repeats" || entry.key == "variants";
  });
  if (only_scope) checker.add(value.mark, "'" + name + "' needs 'say', 'call' or 'calls'");
  script.push_back(std::move(turn));
}

}  // namespace

std::vector<ScriptedTurn> read_script(const YamlNode& value, YamlChecker& checker) {
  std::vector<ScriptedTurn> script;
  const std::vector<YamlNode>* items = checker.list(value, "script");
  if (!items) return script;
  for (std::size_t i = 0; i < items->size(); ++i) read_turn((*items)[i], indexed("script", i), checker, script);
  return script;
}

}  // namespace agent_run
