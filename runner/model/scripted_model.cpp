#include "model/scripted_model.h"

namespace agent_run {

namespace {

std::size_t schema_bytes(const std::vector<ToolSchema>& tools) {
  std::size_t bytes = 0;
  for (const ToolSchema& tool : tools) {
    bytes += tool.name.size() + tool.description.size() + tool.input_schema.dump().size();
  }
  return bytes;
}

std::size_t message_bytes(const Message& message) {
  std::size_t bytes = message.text.size();
  for (const ToolCall& call : message.tool_calls) bytes += call.name.size() + call.input.dump().size();
  for (const ToolResult& result : message.tool_results) bytes += result.content.size();
  return bytes;
}

}  // namespace

std::int64_t estimate_tokens(std::size_t bytes) { return static_cast<std::int64_t>((bytes + 3) / 4); }

ScriptedModel::ScriptedModel(std::vector<ScriptedTurn> script, std::string name)
    : m_script(std::move(script)), m_name(std::move(name)) {}

bool is_scripted_model(const std::string& model) { return model == "script" || model.starts_with("script/"); }

std::string scripted_variant(const std::string& model) {
  return model.starts_with("script/") ? model.substr(7) : std::string();
}

std::size_t ScriptedModel::request_bytes(const Conversation& conversation, const std::vector<ToolSchema>& tools) {
  if (!m_schema_bytes) m_schema_bytes = schema_bytes(tools);
  if (conversation.messages.size() < m_counted_messages) {  // not the conversation counted so far: start again
    m_counted_messages = 0;
    m_message_bytes = 0;
  }
  for (; m_counted_messages < conversation.messages.size(); ++m_counted_messages) {
    m_message_bytes += message_bytes(conversation.messages[m_counted_messages]);
  }
  return conversation.system.size() + *m_schema_bytes + m_message_bytes;
}

Expected<ModelTurn> ScriptedModel::complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) {
  ModelTurn turn;
  turn.message.role = Role::assistant;
  turn.usage = Usage::zero();
  turn.usage.estimated = true;
  turn.usage.input_tokens = estimate_tokens(request_bytes(conversation, tools));
  if (m_next_turn >= m_script.size()) {
    turn.stop_reason = StopReason::end_turn;  // the script ran out: the model is done
    return turn;
  }
  const ScriptedTurn& scripted = m_script[m_next_turn];
  std::size_t output_bytes = scripted.say.size();
  turn.message.text = scripted.say;
  for (std::size_t i = 0; i < scripted.calls.size(); ++i) {
    const ScriptedCall& call = scripted.calls[i];
    std::string id = "call_" + std::to_string(m_next_turn + 1) + "_" + std::to_string(i + 1);
    turn.message.tool_calls.push_back(ToolCall{id, call.tool, call.input});
    output_bytes += call.tool.size() + call.input.dump().size();
  }
  turn.usage.output_tokens = estimate_tokens(output_bytes);
  turn.stop_reason = turn.message.tool_calls.empty() ? StopReason::end_turn : StopReason::tool_use;
  ++m_next_turn;
  return turn;
}

}  // namespace agent_run
