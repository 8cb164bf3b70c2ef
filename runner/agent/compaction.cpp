#include "agent/compaction.h"

#include <map>

namespace agent_run {

namespace {

const char* const k_instruction =
    "agent-run: the conversation is about to outgrow the model's context window, so it will be cut and go on from "
    "a summary you write now. Do not call any tool. Answer with the summary only, for yourself, to carry on "
    "the task without this conversation: what you found out (files, functions, commands and their results that "
    "matter), what you changed and why, what is left to do, and every open problem (failing tests, errors, "
    "denied calls) with its exact message. The task itself, your plan and the list of files you changed are kept "
    "for you; do not repeat them.";

std::string plan_text(const std::vector<TodoItem>& plan) {
  if (plan.empty()) return "(no plan was written with todo_write)\n";
  std::string text;
  for (const TodoItem& item : plan) text += "- [" + item.status + "] " + item.content + "\n";
  return text;
}

std::string files_text(const std::vector<EditRecord>& edits) {
  if (edits.empty()) return "(none yet)\n";
  std::map<std::string, int> counts;
  std::vector<std::string> order;
  for (const EditRecord& edit : edits) {
    if (counts[edit.path]++ == 0) order.push_back(edit.path);
  }
  std::string text;
  for (const std::string& path : order) {
    text += "- " + path + (counts[path] > 1 ? " (" + std::to_string(counts[path]) + " edits)" : "") + "\n";
  }
  return text;
}

}  // namespace

Conversation compaction_request(const Conversation& conversation) {
  Conversation request = conversation;
  if (request.messages.empty() || request.messages.back().role != Role::user) {
    request.messages.push_back(Message{Role::user, k_instruction, {}, {}, {}});
    return request;
  }
  std::string& text = request.messages.back().text;
  text += (text.empty() ? "" : "\n\n") + std::string(k_instruction);
  return request;
}

Conversation compacted_conversation(const std::string& system, const std::string& summary, const CompactionKeep& keep) {
  std::string text = keep.task + "\n\n---\nagent-run compacted this conversation (compaction " +
                     std::to_string(keep.number) + ", before turn " + std::to_string(keep.turn) +
                     ") to stay inside the model's context window. The work so far, as you summarised it:\n\n" +
                     summary + "\n\nYour plan, as todo_write last had it:\n" + plan_text(keep.plan) +
                     "\nFiles changed so far:\n" + files_text(keep.edits);
  if (!keep.last_feedback.empty())
    text += "\nThe latest checks that failed, as they were sent to you:\n" + keep.last_feedback + "\n";
  text +=
      "\nCarry on with the task from here. What you read before is no longer in the conversation: read it again "
      "when you need it.";
  return Conversation{system, {Message{Role::user, text, {}, {}, {}}}};
}

}  // namespace agent_run
