#pragma once

#include "base/clock.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// Whether a failed try is worth another.
enum class Retry { no, yes };

/// The parts of an error response's head that steer the retry decision.
struct ResponseHead {
  int status = 0;
  std::string request_id;
  std::string should_retry;    // x-should-retry: "true", "false" or ""
  std::string retry_after_ms;  // retry-after-ms
  std::string retry_after;     // retry-after: seconds or an HTTP date
};

/// What an API's error body says, read by the provider's codec.
struct ApiErrorBody {
  std::string type;  // invalid_request_error, rate_limit_error, insufficient_quota, ...
  std::string code;  // OpenAI's `code`, Anthropic's `error.details.error_code`
  std::string message;
  std::string request_id;
};

/// One failed try of a model call, classified: what went wrong and whether to try again.
struct ApiFailure {
  int status = 0;  // HTTP status; 0 when no response arrived
  std::string error_type;
  std::string message;
  std::string request_id;
  Retry retry = Retry::no;
  std::optional<std::chrono::milliseconds> retry_after;  // the server's own wait, when it gave one
  bool context_window = false;                           // the prompt did not fit: the turn ends with that stop reason
  bool billing = false;                                  // quota or spend limit: no retry helps
};

/// The official SDKs' rule: `x-should-retry` wins; else 408, 409, 429 and every 5xx (529 too).
Retry retry_for_status(int status, std::string_view should_retry);

/// True for errors that mean money, not load: Anthropic's billing_error and spend limit,
/// OpenAI's insufficient_quota and its spend and credit codes.
bool is_billing_error(const ApiErrorBody& body);

/// True when the API refused the request because the prompt outgrew the context window.
bool is_context_window_error(const ApiErrorBody& body);

/// Whether an `error` event inside a 200 stream is transient (overloaded, server error) or not.
Retry retry_for_stream_error(std::string_view error_type);

/// `retry-after-ms` (milliseconds) first, then `retry-after` as seconds or an HTTP date
/// relative to `now`; nullopt when neither is usable.
std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view retry_after_ms,
                                                           std::string_view retry_after, Clock::WallTime now);

/// Classifies an error response: retry decision, billing and context-window flags, server wait.
ApiFailure classify_error_response(const ResponseHead& head, const ApiErrorBody& body, Clock::WallTime now);

/// The wait before the next try, as the SDKs compute it: the server's wait when it is in
/// (0, cap]; else min(0.5 s * 2^retries_so_far, 8 s) less up to 25 % jitter (`random01` in [0, 1)).
std::chrono::milliseconds backoff_wait(int retries_so_far, std::optional<std::chrono::milliseconds> server_wait,
                                       std::chrono::milliseconds cap, double random01);

}  // namespace agent_run
