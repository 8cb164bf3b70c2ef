#include "tools/mcp_resource_tools.h"

#include "base/count_text.h"
#include "tools/mcp_tool.h"

#include <algorithm>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr int k_pages_per_call = 10;             // of each list, before the model is handed a cursor
constexpr std::size_t k_listed_bytes = 50 * 1024;  // of resource lines, likewise

/// What is left of a call's time, at least a millisecond so that an exhausted call still asks once.
std::chrono::milliseconds left_of(SteadyClock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
  return std::max(left, std::chrono::milliseconds(1));
}

/// Every page of one list from `cursor`, up to the caps; `next` is where a later call goes on.
struct Listed {
  std::vector<McpResourceInfo> resources;
  std::optional<std::string> next;
};

Expected<Listed> list_pages(McpClient& client, ResourceListKind kind, std::optional<std::string> cursor,
                            SteadyClock::time_point deadline) {
  Listed listed;
  std::size_t bytes = 0;
  for (int page = 0; page < k_pages_per_call && bytes < k_listed_bytes; ++page) {
    AR_TRY_ASSIGN(ResourcePage read, client.list_resources(kind, cursor, left_of(deadline)));
    bytes += resource_lines(read.resources).size();
    for (McpResourceInfo& resource : read.resources) listed.resources.push_back(std::move(resource));
    cursor = read.next_cursor;
    if (!cursor) return listed;
  }
  listed.next = cursor;
  return listed;
}

ToolOutput failed(std::string text) { return ToolOutput{std::move(text), true, {}, {}}; }

std::string string_input(const Json& input, const char* key) {
  const Json* value = input.is_object() ? input.find(key) : nullptr;
  return value && value->is_string() ? value->as_string() : "";
}

}  // namespace

McpListResourcesTool::McpListResourcesTool(std::string server, McpClient& client)
    : m_server(std::move(server)), m_client(client) {}

ToolSchema McpListResourcesTool::schema() const {
  Json cursor = Json::object()
                    .set("type", "string")
                    .set("description", "Where an earlier answer said the list goes on; leave out to start");
  Json input = Json::object().set("type", "object").set("properties", Json::object().set("cursor", std::move(cursor)));
  return ToolSchema{mcp_tool_name(m_server, k_list_resources_tool),
                    "Lists the resources (data the server makes available by URI: files, records, documents) and "
                    "the resource templates of the MCP server '" +
                        m_server + "'. Read one with " + mcp_tool_name(m_server, k_read_resource_tool) + ".",
                    std::move(input)};
}

ToolOutput McpListResourcesTool::run(const Json& input, const ToolScope&, SessionState&,
                                     std::chrono::milliseconds timeout) {
  const auto deadline = SteadyClock::now() + timeout;
  std::optional<std::string> cursor;
  if (std::string given = string_input(input, "cursor"); !given.empty()) cursor = given;
  Expected<Listed> resources = list_pages(m_client, ResourceListKind::resources, cursor, deadline);
  if (!resources) return mcp_tool_output(failed_call(resources.error().message), m_server, m_client);
  std::string text = "The MCP server '" + m_server + "' lists " +
                     (resources->resources.empty() ? "no resources" : count_of(resources->resources.size(), "resource", "resources")) +
                     (cursor ? " from the cursor given" : "") + (resources->resources.empty() ? ".\n" : ":\n") +
                     resource_lines(resources->resources);
  if (resources->next) {
    text += "There are more: call " + mcp_tool_name(m_server, k_list_resources_tool) + " with " +
            Json::object().set("cursor", *resources->next).dump() + " for them.\n";
  }
  if (!cursor) {  // a server without templates may refuse the method: it then lists none
    Expected<Listed> templates = list_pages(m_client, ResourceListKind::templates, std::nullopt, deadline);
    if (templates && !templates->resources.empty()) {
      text += "Resource templates (a URI with each {name} filled in can be read):\n" +
              resource_lines(templates->resources);
    }
  }
  text += "Read one with " + mcp_tool_name(m_server, k_read_resource_tool) + " {\"uri\": \"...\"}.";
  return ToolOutput{std::move(text), false, {}, {}};
}

McpReadResourceTool::McpReadResourceTool(std::string server, McpClient& client)
    : m_server(std::move(server)), m_client(client) {}

ToolSchema McpReadResourceTool::schema() const {
  Json uri = Json::object().set("type", "string").set(
      "description", "The resource's URI: one listed by " + mcp_tool_name(m_server, k_list_resources_tool) +
                         ", a template's with its {names} filled in, or a resource link's from a tool result");
  Json input = Json::object()
                   .set("type", "object")
                   .set("properties", Json::object().set("uri", std::move(uri)))
                   .set("required", Json(Json::Array{Json("uri")}));
  return ToolSchema{mcp_tool_name(m_server, k_read_resource_tool),
                    "Reads one resource of the MCP server '" + m_server + "' by its URI.", std::move(input)};
}

ToolOutput McpReadResourceTool::run(const Json& input, const ToolScope&, SessionState&,
                                    std::chrono::milliseconds timeout) {
  const std::string uri = string_input(input, "uri");
  if (uri.empty()) return failed("read_resource needs the resource's URI as the string 'uri'. The call was not run.");
  McpCallResult result = m_client.read_resource(uri, timeout);
  if (result.error.empty() && result.content.empty()) {
    return ToolOutput{"The resource " + uri + " is empty.", false, {}, {}};
  }
  return mcp_tool_output(result, m_server, m_client);
}

std::vector<std::unique_ptr<Tool>> mcp_resource_tools(const std::string& server, McpClient& client) {
  std::vector<std::unique_ptr<Tool>> tools;
  tools.push_back(std::make_unique<McpListResourcesTool>(server, client));
  tools.push_back(std::make_unique<McpReadResourceTool>(server, client));
  return tools;
}

}  // namespace agent_run
