#include "tools/mcp_tool.h"

#include "tools/mcp_resource_tools.h"

#include <algorithm>

namespace agent_run {

namespace {

constexpr std::size_t k_longest_tool_name = 64;
constexpr const char* k_no_human = "no human in the loop";

std::vector<ImageBlock> images_of(const McpCallResult& result) {
  std::vector<ImageBlock> images;
  for (const McpContent& block : result.content) {
    if (block.kind == McpContentKind::image && !block.dropped && !block.data.empty()) {
      images.push_back(ImageBlock{block.mime_type, block.data});
    }
  }
  return images;
}

ElicitationAnswer declined(std::string answered_by, std::string reason) {
  return ElicitationAnswer{ElicitationAction::decline, nullptr, std::move(answered_by), std::move(reason)};
}

}  // namespace

McpTool::McpTool(std::string server, McpToolInfo info, McpClient& client, ResourceReader reads_resources)
    : m_server(std::move(server)), m_info(std::move(info)), m_client(client), m_reads_resources(reads_resources) {}

ToolSchema McpTool::schema() const {
  std::string description = m_info.description.empty() ? m_info.title : m_info.description;
  if (description.empty()) description = "The tool '" + m_info.name + "' of the MCP server '" + m_server + "'.";
  return ToolSchema{mcp_tool_name(m_server, m_info.name), description, m_info.input_schema};
}

ToolOutput McpTool::run(const Json& input, const ToolScope&, SessionState&, std::chrono::milliseconds timeout) {
  McpCallResult result = m_client.call_tool(m_info.name, input, timeout);
  ToolOutput output = mcp_tool_output(result, m_server, m_client);
  const bool links = std::any_of(result.content.begin(), result.content.end(),
                                 [](const McpContent& block) { return block.kind == McpContentKind::resource_link; });
  if (links && m_reads_resources == ResourceReader::offered) {
    output.content += "\n(Read a linked resource with " + mcp_tool_name(m_server, k_read_resource_tool) +
                      " {\"uri\": \"...\"}.)";
  }
  return output;
}

ToolOutput mcp_tool_output(const McpCallResult& result, const std::string& server, const McpClient& client) {
  ToolOutput output;
  output.content = call_result_text(result);
  if (!result.error.empty()) {
    // A server that ended mid-attempt fails every call the same way: say so, and why, once plainly.
    if (std::optional<std::string> gone = client.closed_because()) {
      output.content = "The MCP server '" + server + "' is unavailable: it ended during the attempt (" + *gone +
                       "); none of its tools can be called any more.";
    }
  }
  output.is_error = result.is_error;
  output.images = images_of(result);
  output.error = result.error;
  return output;
}

std::string mcp_tool_name(const std::string& server, const std::string& tool) { return "mcp__" + server + "__" + tool; }

std::optional<std::string> mcp_tool_name_problem(const std::string& server, const std::string& tool) {
  std::string name = mcp_tool_name(server, tool);
  bool characters_ok = std::all_of(tool.begin(), tool.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  if (!characters_ok) return "its name '" + tool + "' holds characters model APIs refuse in tool names";
  if (name.size() > k_longest_tool_name) {
    return "'" + name + "' is longer than the " + std::to_string(k_longest_tool_name) + " characters model APIs allow";
  }
  return std::nullopt;
}

ElicitationHandler elicitation_by_answers(const AskUserAnswers& answers) {
  return [answers](const ElicitationRequest& request) -> ElicitationAnswer {
    AnswerDecision decision = answer_question(answers, request.message, {});
    if (decision.answered_by == "rule") {
      const std::string& choose = answers.rules[static_cast<std::size_t>(decision.rule_index)].choose;
      std::string by = "rule " + std::to_string(decision.rule_index + 1);
      auto filled = fill_form(request.requested_schema, choose);
      if (!filled) return declined(by, "its answer '" + choose + "' does not fit the form: " + filled.error().message);
      return ElicitationAnswer{ElicitationAction::accept, std::move(*filled), by, ""};
    }
    if (answers.otherwise == AnswerFallback::first) {
      if (auto defaults = form_defaults(request.requested_schema)) {
        return ElicitationAnswer{ElicitationAction::accept, std::move(*defaults), "first", ""};
      }
      return declined("first", std::string(k_no_human) + ", and the form has a required field without a default");
    }
    return declined(to_string(answers.otherwise), k_no_human);
  };
}

}  // namespace agent_run
