#include "agent/context_window.h"

#include <algorithm>

namespace agent_run {

namespace {

constexpr std::size_t k_large_result_bytes = 1024;
constexpr double k_full_share = 0.95;  // of the window: the rest is a margin for the estimate's error and the answer
constexpr std::int64_t k_image_tokens = 1600;   // what a provider charges for a picture, roughly
constexpr std::int64_t k_message_overhead = 4;  // role and framing
constexpr std::size_t k_input_shown_bytes = 200;
constexpr std::string_view k_stub_prefix = "[agent-run pruned this tool result";

std::size_t message_bytes(const Message& message) {
  std::size_t bytes = message.text.size();
  for (const ThinkingBlock& block : message.thinking) {
    bytes += block.thinking.size() + block.signature.size() + block.redacted_data.size();
  }
  for (const ToolCall& call : message.tool_calls) bytes += call.name.size() + call.input.dump().size();
  for (const ToolResult& result : message.tool_results) bytes += result.content.size();
  return bytes;
}

/// The call in `assistant` that `result` answers.
const ToolCall* call_of(const Message& assistant, const ToolResult& result) {
  for (const ToolCall& call : assistant.tool_calls) {
    if (call.id == result.call_id) return &call;
  }
  return nullptr;
}

}  // namespace

std::int64_t estimated_tokens(std::size_t bytes) { return static_cast<std::int64_t>((bytes + 3) / 4); }

std::string pruned_stub(const ToolCall* call, std::size_t bytes) {
  std::string text = std::string(k_stub_prefix) + " to keep the context small (" + std::to_string(bytes) + " bytes)";
  if (call == nullptr) return text + "; run the call again to see it]";
  std::string input = call->input.dump();
  if (input.size() > k_input_shown_bytes) input = input.substr(0, k_input_shown_bytes) + "...";
  return text + "; to see it again, call " + call->name + " with " + input + "]";
}

ContextWindow::ContextWindow(ContextSettings settings, std::optional<std::int64_t> model_window,
                             std::size_t fixed_bytes)
    : m_settings(settings), m_window(settings.window ? settings.window : model_window),
      m_fixed_tokens(estimated_tokens(fixed_bytes)) {}

void ContextWindow::set_fixed_bytes(std::size_t fixed_bytes) { m_fixed_tokens = estimated_tokens(fixed_bytes); }

std::int64_t ContextWindow::estimate(const Message& message) const {
  std::int64_t images = 0;
  for (const ToolResult& result : message.tool_results) images += static_cast<std::int64_t>(result.images.size());
  return estimated_tokens(message_bytes(message)) + k_message_overhead + images * k_image_tokens;
}

void ContextWindow::count_new(const Conversation& conversation) {
  for (std::size_t i = m_estimates.size(); i < conversation.messages.size(); ++i) {
    m_estimates.push_back(estimate(conversation.messages[i]));
    m_message_tokens += m_estimates.back();
  }
}

void ContextWindow::recount_last(const Conversation& conversation) {
  count_new(conversation);
  if (m_estimates.empty() || conversation.messages.size() != m_estimates.size()) return;
  const std::int64_t now = estimate(conversation.messages.back());
  m_message_tokens += now - m_estimates.back();
  m_estimates.back() = now;
}

void ContextWindow::sending(const Conversation& conversation) {
  count_new(conversation);
  m_estimate_sent = estimated_total();
}

void ContextWindow::measured(std::int64_t request_tokens) {
  if (request_tokens <= 0) return;
  m_anchor = request_tokens;
  m_anchor_estimate = m_estimate_sent;
}

void ContextWindow::restart(const Conversation& conversation) {
  m_estimates.clear();
  m_message_tokens = 0;
  m_anchor.reset();
  m_large_cursor = m_small_cursor = 0;
  count_new(conversation);
}

void ContextWindow::learn_refusal() {
  const std::int64_t refused = std::max<std::int64_t>(size(), 1);
  if (!m_window || *m_window > refused) m_window = refused;
  else m_window = std::max<std::int64_t>(*m_window * 9 / 10, 1);  // our estimate was low: shrink further
}

std::int64_t ContextWindow::size() const {
  if (!m_anchor) return estimated_total();
  return std::max<std::int64_t>(*m_anchor + (estimated_total() - m_anchor_estimate), 0);
}

bool ContextWindow::needs_room() const {
  return m_window && static_cast<double>(size()) >= m_settings.threshold * static_cast<double>(*m_window);
}

bool ContextWindow::over_window() const {
  return m_window && static_cast<double>(size()) >= k_full_share * static_cast<double>(*m_window);
}

std::int64_t ContextWindow::target_tokens() const {
  return m_window ? static_cast<std::int64_t>(m_settings.target * static_cast<double>(*m_window)) : 0;
}

std::size_t ContextWindow::protected_from(const Conversation& conversation, PruneDepth depth) const {
  int keep = depth == PruneDepth::hard ? 1 : std::max(m_settings.keep_turns, 1);
  std::size_t index = conversation.messages.size();
  while (index > 0 && keep > 0) {
    --index;
    if (conversation.messages[index].role == Role::assistant) --keep;
  }
  return keep > 0 ? 0 : index;  // fewer turns than kept: nothing may go
}

int ContextWindow::prune_pass(Conversation& conversation, std::size_t end, std::size_t min_bytes, std::size_t& cursor) {
  int pruned = 0;
  for (; cursor < end && size() > target_tokens(); ++cursor) {
    Message& message = conversation.messages[cursor];
    if (message.tool_results.empty() || cursor == 0) continue;
    bool changed = false;
    for (ToolResult& result : message.tool_results) {
      if (result.content.size() < std::max(min_bytes, std::size_t{1}) ||
          std::string_view(result.content).starts_with(k_stub_prefix)) {
        continue;
      }
      std::string stub = pruned_stub(call_of(conversation.messages[cursor - 1], result), result.content.size());
      if (stub.size() >= result.content.size() && result.images.empty()) continue;
      result.content = std::move(stub);
      result.images.clear();
      changed = true;
      ++pruned;
    }
    if (!changed) continue;
    const std::int64_t now = estimate(message);
    m_message_tokens += now - m_estimates[cursor];
    m_estimates[cursor] = now;
  }
  return pruned;
}

PruneResult ContextWindow::prune(Conversation& conversation, PruneDepth depth) {
  count_new(conversation);
  PruneResult result;
  result.tokens_before = size();
  const std::size_t end = std::min(protected_from(conversation, depth), m_estimates.size());
  std::size_t large = std::min(m_large_cursor, end);
  std::size_t small = std::min(m_small_cursor, end);
  result.results_pruned = prune_pass(conversation, end, k_large_result_bytes, large);
  result.results_pruned += prune_pass(conversation, end, 0, small);
  m_large_cursor = std::max(m_large_cursor, large);
  m_small_cursor = std::max(m_small_cursor, small);
  result.tokens_after = size();
  return result;
}

}  // namespace agent_run
