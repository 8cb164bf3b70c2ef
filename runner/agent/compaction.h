#pragma once

#include "model/conversation.h"
#include "report/run_report.h"

#include <string>
#include <vector>

namespace agent_run {

/// What a compaction keeps verbatim, whatever the model's summary says.
struct CompactionKeep {
  std::string task;               // the task's prompt
  std::vector<TodoItem> plan;     // todo_write's last list
  std::vector<EditRecord> edits;  // every edit so far: the files changed
  std::string last_feedback;      // the latest failed checks sent back, when there were any
  int number = 1;                 // 1 for the attempt's first compaction
  int turn = 0;                   // the turn it happened before
};

/// The request asking the model to summarise the work so far: the conversation as it stands, with
/// the instruction added to its last (user) message. The tools stay offered (Anthropic refuses tool
/// blocks without them); the instruction says not to call any.
Conversation compaction_request(const Conversation& conversation);

/// The conversation that goes on after a compaction: one user message with the task, the model's
/// summary, the plan, the files changed and the latest check feedback, each verbatim.
Conversation compacted_conversation(const std::string& system, const std::string& summary, const CompactionKeep& keep);

}  // namespace agent_run
