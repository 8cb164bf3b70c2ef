// The conformance suite's client mode (@modelcontextprotocol/conformance): it runs
// `agent-run mcp URL` with MCP_CONFORMANCE_SCENARIO set and judges what the client did.
#include "app/mcp_command.h"

#include "base/cancellation.h"
#include "mcp/server_launch.h"

#include <ostream>

namespace agent_run {

namespace {

constexpr std::chrono::milliseconds k_call_timeout{20000};  // the suite gives a scenario 30 s

/// A value of the type a JSON Schema property names, for a call that only has to be valid.
Json example_value(const Json& property) {
  if (const Json* value = property.find("default")) return *value;
  if (const Json* choices = property.find("enum"); choices && choices->is_array() && !choices->as_array().empty()) {
    return choices->as_array().front();
  }
  std::string type = property.get_string("type", "string");
  if (type == "number" || type == "integer") return Json(1);
  if (type == "boolean") return Json(true);
  if (type == "array") return Json::array();
  if (type == "object") return Json::object();
  return Json("example");
}

/// Arguments for a tool: its required properties (and those with a default), each an example value.
Json example_arguments(const Json& schema) {
  Json arguments = Json::object();
  const Json* properties = schema.find("properties");
  if (!properties || !properties->is_object()) return arguments;
  const Json* required = schema.find("required");
  for (const auto& [name, property] : properties->as_object()) {
    bool needed = property.find("default") != nullptr;
    if (required && required->is_array()) {
      for (const Json& item : required->as_array()) needed = needed || (item.is_string() && item.as_string() == name);
    }
    if (needed) arguments.set(name, example_value(property));
  }
  return arguments;
}

}  // namespace

int mcp_conformance_client(const std::string& url, const std::string& scenario, const ProgramContext& context) {
  context.err << "agent-run mcp: conformance scenario '" << scenario << "' against " << url << "\n";
  Cancellation cancellation;
  McpLaunchContext launch;
  launch.environment = context.environment;
  launch.cancellation = &cancellation;
  launch.elicitation = answer_with_defaults;
  McpServerSpec spec;
  spec.name = "conformance";
  spec.url = url;
  auto client = connect_server(spec, launch);
  if (!client) {
    context.err << "agent-run: " << client.error().message << "\n";
    return static_cast<int>(ExitCode::not_judged);
  }
  const McpServerInfo& server = (*client)->server();
  context.err << "connected to " << server.name << " " << server.version << " (MCP " << server.protocol_version
              << ")\n";
  auto tools = (*client)->list_tools();
  if (!tools) {
    context.err << "agent-run: " << tools.error().message << "\n";
    return static_cast<int>(ExitCode::not_judged);
  }
  for (const McpToolInfo& tool : *tools) {
    Json arguments = example_arguments(tool.input_schema);
    McpCallResult result = (*client)->call_tool(tool.name, arguments, k_call_timeout);
    context.out << tool.name << " " << arguments.dump() << " -> " << call_result_text(result) << "\n";
  }
  (*client)->close();
  return 0;
}

}  // namespace agent_run
