#include "mcp/tool_list.h"

namespace agent_run {

namespace {

/// Why a tool's inputSchema cannot go to a model API, or "" when it can.
std::string schema_problem(const Json* schema) {
  if (!schema || !schema->is_object()) return "it has no inputSchema object";
  const Json* type = schema->find("type");
  if (type && !(type->is_string() && type->as_string() == "object")) {
    return "its inputSchema's type is " + type->dump() + ", and a model takes only an object as a tool's input";
  }
  return "";
}

McpToolInfo read_tool(const Json& entry, std::size_t index) {
  const std::string where = "(tool " + std::to_string(index + 1) + " of its tools/list)";
  McpToolInfo tool;
  if (!entry.is_object()) {
    tool.name = where;
    tool.problem = "it is not an object";
    return tool;
  }
  tool.name = entry.get_string("name");
  if (tool.name.empty()) {
    tool.name = where;
    tool.problem = "it has no name";
    return tool;
  }
  const Json* schema = entry.find("inputSchema");
  tool.problem = schema_problem(schema);
  if (schema) tool.input_schema = *schema;
  // A schema that says nothing of its type (`{}`, only `properties`) describes an object's fields;
  // model APIs want the type said, so it is.
  if (tool.problem.empty() && !tool.input_schema.find("type")) tool.input_schema.set("type", "object");
  const Json* execution = entry.find("execution");
  if (tool.problem.empty() && execution && execution->is_object() && execution->get_string("taskSupport") == "required") {
    tool.problem = "it must be called as an MCP task (execution.taskSupport: required), which agent-run does not support";
  }
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
    page.bytes += entry.dump().size();
    page.tools.push_back(read_tool(entry, i));
  }
  if (const Json* cursor = result.find("nextCursor"); cursor && cursor->is_string() && !cursor->as_string().empty()) {
    page.next_cursor = cursor->as_string();
  }
  return page;
}

}  // namespace agent_run
