#pragma once

#include "agent/agent_observer.h"
#include "report/transcript_writer.h"

#include <cstddef>
#include <filesystem>

namespace agent_run {

/// Writes an attempt's transcript.jsonl from what the agent loop does (the events of
/// transcript_events.h, one a line): what the model was told, what it said, what each call returned.
class TranscriptRecorder final : public AgentObserver {
 public:
  explicit TranscriptRecorder(const std::filesystem::path& path) : m_writer(path) {}

  void started(const Conversation& conversation, const std::vector<ToolSchema>& tools) override;
  void request(int turn, const std::string& model, const Conversation& conversation,
               std::int64_t context_tokens) override;
  void turn(int turn, const ModelTurn& response, const ModelCallRecord& call) override;
  void model_error(const ModelCallRecord& call) override;
  void tool_result(const ToolCall& call, const ToolCallRecord& record, const ToolResult& result) override;
  void context_changed(const ContextEvent& event, const Conversation& conversation) override;
  void tools_changed(int turn, const std::vector<ToolsChange>& changes, const std::vector<ToolSchema>& tools) override;
  void notice(int turn, const std::string& text) override;
  void sent_back(int turn, const std::string& review, const std::string& message) override;
  void stop(AgentStop stop, const std::string& message) override;

  /// Closes the transcript: an error when any of it could not be written.
  Expected<void> finish() { return m_writer.close(); }

 private:
  TranscriptWriter m_writer;
  std::size_t m_messages_recorded = 0;  // messages already written in a request event
};

}  // namespace agent_run
