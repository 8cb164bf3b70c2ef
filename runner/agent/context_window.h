#pragma once

#include "agent/agent_settings.h"
#include "model/conversation.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace agent_run {

/// How hard pruning may go.
enum class PruneDepth {
  normal,  // keeps the latest `keep_turns` turns whole
  hard,    // keeps only the latest turn whole
};

/// What one pruning did.
struct PruneResult {
  int results_pruned = 0;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
};

/// Keeps count of how big the next request is against the model's context window, and prunes old
/// tool results when it grows too big. The count is incremental: each message is estimated once
/// (about four bytes a token) when it joins the conversation; the provider's reported input tokens
/// of the last request, when there are any, anchor the estimate, so the next request's size is that
/// figure plus the estimates of what was added or removed since. Nothing re-reads the conversation
/// per turn; pruning walks each message at most once per depth over the whole attempt.
class ContextWindow {
 public:
  /// `fixed_bytes`: the system prompt and tool schemas, sent with every request.
  ContextWindow(ContextSettings settings, std::optional<std::int64_t> model_window, std::size_t fixed_bytes);

  /// What every request carries besides the messages changed (the tools offered).
  void set_fixed_bytes(std::size_t fixed_bytes);
  /// Counts the messages `conversation` gained since the last call.
  void count_new(const Conversation& conversation);
  /// The last message changed (a notice was added to it): counts it again.
  void recount_last(const Conversation& conversation);
  /// `conversation` is about to be sent: counts what it gained, and remembers the estimate of the
  /// request for measured().
  void sending(const Conversation& conversation);
  /// The provider reported `request_tokens` of input (cached included) for the request last sent.
  void measured(std::int64_t request_tokens);
  /// The conversation was replaced (a compaction): counts it afresh, without an anchor.
  void restart(const Conversation& conversation);
  /// The API refused the last request as too long: the window is at most its size (estimated).
  void learn_refusal();

  /// The next request's size in tokens: measured plus estimated, or estimated.
  std::int64_t size() const;
  std::optional<std::int64_t> window() const { return m_window; }
  /// True when the next request would reach the threshold share of the window.
  bool needs_room() const;
  /// True when the next request would not fit the window, less a margin (5%) for the estimate's
  /// error and the answer.
  bool over_window() const;
  /// The token count pruning aims at: the target share of the window.
  std::int64_t target_tokens() const;

  /// Replaces old tool results with a one-line stub saying how to get them again, oldest first,
  /// large ones (1 KiB or more) before small ones, until size() is at the target. The latest turns
  /// stay whole (`keep_turns`, or one at PruneDepth::hard).
  PruneResult prune(Conversation& conversation, PruneDepth depth);

 private:
  std::int64_t estimate(const Message& message) const;
  std::size_t protected_from(const Conversation& conversation, PruneDepth depth) const;
  int prune_pass(Conversation& conversation, std::size_t end, std::size_t min_bytes, std::size_t& cursor);
  std::int64_t estimated_total() const { return m_fixed_tokens + m_message_tokens; }

  ContextSettings m_settings;
  std::optional<std::int64_t> m_window;
  std::int64_t m_fixed_tokens = 0;
  std::vector<std::int64_t> m_estimates;  // per message, as counted
  std::int64_t m_message_tokens = 0;      // their sum
  std::optional<std::int64_t> m_anchor;   // measured size of the last request
  std::int64_t m_anchor_estimate = 0;     // estimated_total() when that request was sent
  std::int64_t m_estimate_sent = 0;       // estimated_total() of the request in flight
  std::size_t m_large_cursor = 0;         // messages before it hold no large unpruned result
  std::size_t m_small_cursor = 0;         // messages before it hold no unpruned result
};

/// The text that replaces a pruned tool result: its size, and the call that would fetch it again.
std::string pruned_stub(const ToolCall* call, std::size_t bytes);

/// Estimated tokens of `bytes` bytes of text (about four bytes a token).
std::int64_t estimated_tokens(std::size_t bytes);

}  // namespace agent_run
