#include "app/mcp_call_check.h"

#include "base/files.h"
#include "base/text.h"
#include "base/yaml_document.h"
#include "policy/tool_names.h"
#include "task/script_check.h"
#include "tools/mcp_resource_tools.h"

#include <algorithm>
#include <map>
#include <memory>

namespace agent_run {

namespace {

/// One declared server as the check met it: its tools, or why it could not list them.
struct LiveServer {
  std::unique_ptr<McpClient> client;
  std::vector<McpToolInfo> tools;
  std::string failure;    // "" when it listed its tools
  bool reported = false;  // its failure was told once
};

/// Starts the server of `spec` and lists its tools.
LiveServer start_server(const McpServerSpec& spec, const McpLaunchContext& context) {
  LiveServer server;
  auto client = connect_server(spec, context);
  if (!client) {
    server.failure = client.error().message;
    return server;
  }
  server.client = std::move(*client);
  auto tools = server.client->list_tools();
  if (tools) server.tools = std::move(*tools);
  else server.failure = tools.error().message;
  return server;
}

/// The schema of `tool` on the live `server`: one of its tools, or agent-run's pair for its
/// resources when it offers them and has no tool of that name.
std::optional<ToolSchema> schema_of(LiveServer& server, const McpName& tool) {
  auto found = std::find_if(server.tools.begin(), server.tools.end(),
                            [&](const McpToolInfo& info) { return info.name == tool.tool; });
  if (found != server.tools.end()) {
    return ToolSchema{"mcp__" + tool.server + "__" + tool.tool, found->description, found->input_schema};
  }
  if (!server.client->offers_resources()) return std::nullopt;
  for (const std::unique_ptr<Tool>& resources : mcp_resource_tools(tool.server, *server.client)) {
    ToolSchema schema = resources->schema();
    if (schema.name == "mcp__" + tool.server + "__" + tool.tool) return schema;
  }
  return std::nullopt;
}

/// The problems of one call of tool `tool` on the live `server`.
void check_call(const YamlNode& call, const YamlNode& tool_node, const std::string& name, const McpName& tool,
                LiveServer& server, const YamlChecker& where, std::vector<std::string>& problems) {
  const std::string full = "mcp__" + tool.server + "__" + tool.tool;
  if (!server.failure.empty()) {
    if (!server.reported) {
      problems.push_back(where.where(tool_node.mark) + ": '" + name + "' calls " + full + ", but MCP server '" +
                         tool.server + "' could not be asked for its tools: " + server.failure);
    }
    server.reported = true;
    return;
  }
  std::optional<ToolSchema> schema = schema_of(server, tool);
  if (!schema) {
    std::vector<std::string> names;
    for (const McpToolInfo& info : server.tools) names.push_back(info.name);
    auto suggestion = closest_match(tool.tool, names);
    problems.push_back(where.where(tool_node.mark) + ": '" + name + "' calls " + full + ", but MCP server '" +
                       tool.server + "' has no tool '" + tool.tool + "'" +
                       (suggestion ? " (did you mean '" + *suggestion + "'?)" : " (it has " + join(names, ", ") + ")"));
    return;
  }
  const YamlNode* input = call.find("input");
  if (input && !input->is_map() && !input->is_null()) return;  // the loader said so
  for (const auto& [mark, message] : script_input_problems(call, input, *schema, name)) {
    problems.push_back(where.where(mark) + ": " + message);
  }
}

}  // namespace

std::vector<std::string> check_mcp_script_calls(const Task& task, const McpLaunchContext& context) {
  std::vector<std::string> problems;
  auto text = read_file(task.source);
  if (!text) return {task.source.string() + ": " + text.error().message};
  YamlDocument document = parse_yaml(*text);
  const YamlNode* script = document.root && document.root->is_map() ? document.root->find("script") : nullptr;
  if (!script) return problems;
  const YamlChecker where(task.source.string());
  std::map<std::string, LiveServer> servers;  // started on the first call that needs each
  for_each_script_call(*script, [&](const YamlNode& call, const std::string& name) {
    const YamlNode* tool_node = call.is_map() ? call.find("tool") : nullptr;
    if (!tool_node || !tool_node->is_scalar()) return;
    auto tool = parse_mcp_name(tool_node->scalar);
    if (!tool || tool->tool.empty()) return;
    auto spec = std::find_if(task.mcp_servers.begin(), task.mcp_servers.end(),
                             [&](const McpServerSpec& entry) { return entry.name == tool->server; });
    if (spec == task.mcp_servers.end()) return;  // the loader refused it already
    auto live = servers.find(tool->server);
    if (live == servers.end()) live = servers.emplace(tool->server, start_server(*spec, context)).first;
    check_call(call, *tool_node, name, *tool, live->second, where, problems);
  });
  for (auto& [name, server] : servers) {
    if (server.client) server.client->close();
  }
  return problems;
}

}  // namespace agent_run
