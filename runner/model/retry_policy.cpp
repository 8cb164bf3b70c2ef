#include "model/retry_policy.h"

#include "base/text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <ctime>

namespace agent_run {

namespace {

std::optional<double> parse_number(std::string_view text) {
  std::string value(trim(text));
  if (value.empty()) return std::nullopt;
  char* end = nullptr;
  double number = std::strtod(value.c_str(), &end);
  if (end != value.c_str() + value.size() || !std::isfinite(number)) return std::nullopt;
  return number;
}

/// An IMF-fixdate (`Wed, 21 Oct 2015 07:28:00 GMT`), the form HTTP servers send.
std::optional<Clock::WallTime> parse_http_date(std::string_view text) {
  std::tm parts{};
  std::string value(trim(text));
  const char* end = ::strptime(value.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &parts);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return std::chrono::system_clock::from_time_t(::timegm(&parts));
}

bool lower_contains(std::string_view text, std::string_view needle) {
  return to_lower(text).find(needle) != std::string::npos;
}

}  // namespace

Retry retry_for_status(int status, std::string_view should_retry) {
  if (should_retry == "true") return Retry::yes;
  if (should_retry == "false") return Retry::no;
  return status == 408 || status == 409 || status == 429 || status >= 500 ? Retry::yes : Retry::no;
}

bool is_billing_error(const ApiErrorBody& body) {
  static constexpr std::array<std::string_view, 8> k_billing = {"billing_error",
                                                                "insufficient_quota",
                                                                "enforced_spend_limit_reached",
                                                                "credit_balance_exhausted",
                                                                "organization_spend_limit_exceeded",
                                                                "project_spend_limit_exceeded",
                                                                "organization_usage_limit_exceeded",
                                                                "billing_hard_limit_reached"};
  return std::any_of(k_billing.begin(), k_billing.end(),
                     [&](std::string_view name) { return body.type == name || body.code == name; });
}

bool is_context_window_error(const ApiErrorBody& body) {
  return body.code == "context_length_exceeded" || lower_contains(body.message, "prompt is too long") ||
         lower_contains(body.message, "maximum context length") || lower_contains(body.message, "context window");
}

Retry retry_for_stream_error(std::string_view error_type) {
  static constexpr std::array<std::string_view, 9> k_final = {
      "invalid_request_error", "authentication_error", "permission_error",        "not_found_error", "billing_error",
      "insufficient_quota",    "request_too_large",    "context_length_exceeded", "invalid_api_key"};
  return std::find(k_final.begin(), k_final.end(), error_type) == k_final.end() ? Retry::yes : Retry::no;
}

std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view retry_after_ms,
                                                           std::string_view retry_after, Clock::WallTime now) {
  if (auto ms = parse_number(retry_after_ms)) {
    return std::chrono::milliseconds(static_cast<long long>(std::llround(*ms)));
  }
  if (auto seconds = parse_number(retry_after)) {
    return std::chrono::milliseconds(static_cast<long long>(std::llround(*seconds * 1000.0)));
  }
  if (auto date = parse_http_date(retry_after)) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(*date - now);
  }
  return std::nullopt;
}

ApiFailure classify_error_response(const ResponseHead& head, const ApiErrorBody& body, Clock::WallTime now) {
  ApiFailure failure;
  failure.status = head.status;
  failure.error_type = body.type.empty() ? "http_" + std::to_string(head.status) : body.type;
  failure.message = body.message;
  failure.request_id = head.request_id.empty() ? body.request_id : head.request_id;
  failure.retry = retry_for_status(head.status, head.should_retry);
  failure.retry_after = parse_retry_after(head.retry_after_ms, head.retry_after, now);
  failure.billing = is_billing_error(body);
  if (failure.billing) failure.retry = Retry::no;
  failure.context_window = head.status == 400 && is_context_window_error(body);
  return failure;
}

std::chrono::milliseconds backoff_wait(int retries_so_far, std::optional<std::chrono::milliseconds> server_wait,
                                       std::chrono::milliseconds cap, double random01) {
  if (server_wait && server_wait->count() > 0 && *server_wait <= cap) return *server_wait;
  double seconds = std::min(0.5 * std::pow(2.0, std::max(retries_so_far, 0)), 8.0);
  seconds *= 1.0 - 0.25 * std::clamp(random01, 0.0, 1.0);
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
}

}  // namespace agent_run
