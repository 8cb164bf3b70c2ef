#include "mcp/tool_list.h"

namespace agent_run {

namespace {

Expected<McpToolInfo> read_tool(const Json& entry, std::size_t index) {
  const std::string where = "tool " + std::to_string(index + 1) + " of its tools/list";
  if (!entry.is_object()) return make_error(where + " is not an object");
  McpToolInfo tool;
  tool.name = entry.get_string("name");
  if (tool.name.empty()) return make_error(where + " has no name");
  const Json* schema = entry.find("inputSchema");
  if (!schema || !schema->is_object()) return make_error("tool '" + tool.name + "' has no inputSchema object");
  tool.input_schema = *schema;
  tool.title = entry.get_string("title");
  tool.description = entry.get_string("description");
  if (const Json* output = entry.find("outputSchema"); output && output->is_object()) tool.output_schema = *output;
  if (const Json* annotations = entry.find("annotations"); annotations && annotations->is_object()) {
    tool.annotations = *annotations;
    if (tool.title.empty()) tool.title = annotations->get_string("title");
  }
  return tool;
}

}  // namespace

Expected<ToolPage> read_tool_page(const Json& result) {
  const Json* tools = result.find("tools");
  if (!tools || !tools->is_array()) return make_error("its tools/list answer holds no tools array");
  ToolPage page;
  for (std::size_t i = 0; i < tools->as_array().size(); ++i) {
    const Json& entry = tools->as_array()[i];
    auto tool = read_tool(entry, i);
    if (!tool) return tool.error();
    page.bytes += entry.dump().size();
    page.tools.push_back(std::move(*tool));
  }
  if (const Json* cursor = result.find("nextCursor"); cursor && cursor->is_string() && !cursor->as_string().empty()) {
    page.next_cursor = cursor->as_string();
  }
  return page;
}

}  // namespace agent_run
