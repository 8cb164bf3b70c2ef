#pragma once

#include "model/model_client.h"
#include "model/scripted_turn.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace agent_run {

/// The built-in model (`model: script`, or a variant `script/NAME`): plays a task's `script:` turns
/// in order through the real loop, ignoring what it is told, and ends its turn when the script runs
/// out. Usage is estimated from the bytes a real API would have read and written (about four bytes
/// a token) and costs nothing.
class ScriptedModel final : public ModelClient {
 public:
  explicit ScriptedModel(std::vector<ScriptedTurn> script, std::string name = "script");

  std::string model_name() const override { return m_name; }
  Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) override;

 private:
  /// Bytes a provider would read for this request: system prompt, tool schemas and every message. The
  /// loop only appends to the conversation, so each message is counted once (a session stays linear).
  std::size_t request_bytes(const Conversation& conversation, const std::vector<ToolSchema>& tools);

  std::vector<ScriptedTurn> m_script;
  std::string m_name;
  std::size_t m_next_turn = 0;
  std::optional<std::size_t> m_schema_bytes;  // the tools' schemas, counted at the first call
  std::size_t m_counted_messages = 0;         // messages already in m_message_bytes
  std::size_t m_message_bytes = 0;
};

/// Whether `model` names the scripted model: `script` or `script/NAME`.
bool is_scripted_model(const std::string& model);

/// The variant a scripted model's name selects: NAME of `script/NAME`, "" for `script`.
std::string scripted_variant(const std::string& model);

/// Estimated tokens in `bytes` bytes of text: about four bytes a token, rounded up.
std::int64_t estimate_tokens(std::size_t bytes);

}  // namespace agent_run
