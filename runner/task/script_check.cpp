#include "task/script_check.h"

#include "base/text.h"
#include "policy/policy_loader.h"
#include "policy/tool_names.h"
#include "tools/input_check.h"
#include "tools/tool_table.h"

#include <algorithm>

namespace agent_run {

namespace {

/// Why the task does not offer the built-in tool `tool`, or "" when it does.
std::string builtin_left_out(const BuiltinTool& tool, const Task& task) {
  if (!task.tools) {
    if (tool.on_by_default) return "";
    return "which is off unless the task's 'tools:' lists it";
  }
  if (std::find(task.tools->begin(), task.tools->end(), tool.name) != task.tools->end()) return "";
  return "which the task's 'tools:' leaves out (add it there, or the call is refused at run time)";
}

/// Why the task does not offer the MCP tool `name`, or "" when it may.
std::string mcp_left_out(const McpName& parsed, const std::string& name, const Task& task) {
  std::vector<std::string> servers;
  for (const McpServerSpec& spec : task.mcp_servers) servers.push_back(spec.name);
  if (std::find(servers.begin(), servers.end(), parsed.server) == servers.end()) {
    auto suggestion = closest_match(parsed.server, servers);
    return "but the task has no MCP server '" + parsed.server + "' in 'mcp_servers:'" +
           (suggestion ? " (did you mean '" + *suggestion + "'?)" : "");
  }
  const auto& listed = task.tools;
  bool names_mcp = listed && std::any_of(listed->begin(), listed->end(),
                                         [](const std::string& tool) { return tool.starts_with("mcp__"); });
  if (names_mcp && std::none_of(listed->begin(), listed->end(), [&](const std::string& tool) {
        return tool_pattern_matches(tool, name);
      })) {
    return "which the task's 'tools:' leaves out";
  }
  return "";
}

/// The input of one call checked against the built-in tool's schema.
void check_input(const YamlNode& call, const YamlNode* input, const ToolSchema& schema, const std::string& name,
                 TaskReading& reading) {
  for (const auto& [mark, message] : script_input_problems(call, input, schema, name)) reading.checker.add(mark, message);
}

/// A scripted call of an MCP tool, whose input can be checked only against the live server.
struct UncheckedMcpCall {
  std::string where;
  std::string name;
  std::string tool;
};

/// One `{tool: NAME, input: {...}}`; its shape was checked by script_reading.
void check_call(const YamlNode& call, const std::string& name, TaskReading& reading,
                std::vector<UncheckedMcpCall>& unchecked) {
  const YamlNode* tool = call.find("tool");
  if (!call.is_map() || !tool || !tool->is_scalar()) return;
  const std::string& tool_name = tool->scalar;
  const YamlNode* input = call.find("input");
  if (input && !input->is_map() && !input->is_null()) return;  // script_reading said so
  if (const BuiltinTool* builtin = find_builtin_tool(tool_name)) {
    if (std::string why = builtin_left_out(*builtin, reading.task); !why.empty()) {
      reading.checker.add(tool->mark, "'" + name + "' calls " + tool_name + ", " + why);
    }
    if (const ToolSchema* schema = builtin_tool_schema(tool_name)) check_input(call, input, *schema, name, reading);
  } else if (auto parsed = parse_mcp_name(tool_name); parsed && !parsed->tool.empty()) {
    if (std::string why = mcp_left_out(*parsed, tool_name, reading.task); !why.empty()) {
      reading.checker.add(tool->mark, "'" + name + "' calls " + tool_name + ", " + why);
    } else {
      unchecked.push_back({reading.checker.where(tool->mark), name, tool_name});
    }
  } else {
    reading.checker.add(tool->mark, "'" + name + ".tool': " +
                                        tool_name_problem(tool_name).value_or("unknown tool '" + tool_name + "'"));
  }
}

}  // namespace

std::vector<std::pair<YamlMark, std::string>> script_input_problems(const YamlNode& call, const YamlNode* input,
                                                                    const ToolSchema& schema,
                                                                    const std::string& name) {
  std::vector<std::pair<YamlMark, std::string>> problems;
  const Json value = input && input->is_map() ? yaml_to_json(*input) : Json::object();
  for (const InputProblem& problem : check_tool_input(schema, value)) {
    YamlMark mark = input ? input->mark : call.mark;
    if (input && !problem.key.empty()) {
      for (const YamlEntry& entry : input->entries) {
        if (entry.key != problem.key) continue;
        const bool unknown = problem.message.find(" has no input ") != std::string::npos;
        mark = unknown ? entry.key_mark : entry.value.mark;
      }
    }
    problems.emplace_back(mark, "'" + name + "': " + problem.message);
  }
  return problems;
}

void for_each_script_call(const YamlNode& script,
                          const std::function<void(const YamlNode& call, const std::string& name)>& visit) {
  if (!script.is_sequence()) return;
  for (std::size_t i = 0; i < script.items.size(); ++i) {
    const YamlNode& turn = script.items[i];
    if (!turn.is_map()) continue;
    const std::string name = indexed("script", i);
    if (const YamlNode* call = turn.find("call")) visit(*call, name + ".call");
    if (const YamlNode* calls = turn.find("calls"); calls && calls->is_sequence()) {
      for (std::size_t j = 0; j < calls->items.size(); ++j) visit(calls->items[j], indexed(name + ".calls", j));
    }
  }
}

void check_script_calls(const YamlNode& script, TaskReading& reading) {
  std::vector<UncheckedMcpCall> unchecked;
  for_each_script_call(script,
                       [&](const YamlNode& call, const std::string& name) { check_call(call, name, reading, unchecked); });
  if (unchecked.empty()) return;
  // One warning for the task, at its first such call: a line per call drowned the console.
  const UncheckedMcpCall& first = unchecked.front();
  const std::string more = unchecked.size() == 1 ? std::string()
                           : unchecked.size() == 2 ? " and 1 more scripted MCP call"
                                                   : " and " + std::to_string(unchecked.size() - 1) + " more scripted MCP calls";
  reading.task.warnings.push_back(first.where + ": warning: the input of '" + first.name + "' (" + first.tool + ")" +
                                  more + (unchecked.size() == 1 ? " is" : " are") +
                                  " not checked: an MCP tool's schema is known only once its server runs "
                                  "(agent-run validate --mcp starts it and checks it)");
}

}  // namespace agent_run
