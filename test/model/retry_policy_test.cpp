#include "model/retry_policy.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(retry_policy)

BOOST_AUTO_TEST_CASE(statuses_are_retried_as_the_official_sdks_do) {
  for (int status : {408, 409, 429, 500, 502, 503, 504, 529}) {
    BOOST_TEST_INFO(status);
    BOOST_TEST((retry_for_status(status, "") == Retry::yes));
  }
  for (int status : {400, 401, 403, 404, 413, 422}) {
    BOOST_TEST_INFO(status);
    BOOST_TEST((retry_for_status(status, "") == Retry::no));
  }
}

BOOST_AUTO_TEST_CASE(x_should_retry_overrides_the_status) {
  BOOST_TEST((retry_for_status(400, "true") == Retry::yes));
  BOOST_TEST((retry_for_status(529, "false") == Retry::no));
}

BOOST_AUTO_TEST_CASE(quota_and_spend_limit_errors_are_never_retried_even_as_429) {
  ResponseHead head{429, "req_1", "", "", "3"};
  ApiFailure anthropic = classify_error_response(
      head, ApiErrorBody{"rate_limit_error", "enforced_spend_limit_reached", "spend limit", ""}, Clock::WallTime{});
  BOOST_TEST(anthropic.billing);
  BOOST_TEST((anthropic.retry == Retry::no));
  ApiFailure openai = classify_error_response(
      head, ApiErrorBody{"insufficient_quota", "insufficient_quota", "quota", ""}, Clock::WallTime{});
  BOOST_TEST((openai.retry == Retry::no));
  ApiFailure busy = classify_error_response(head, ApiErrorBody{"rate_limit_error", "", "busy", ""}, Clock::WallTime{});
  BOOST_TEST((busy.retry == Retry::yes));
  BOOST_TEST(busy.retry_after->count() == 3000);
  BOOST_TEST(busy.request_id == "req_1");
}

BOOST_AUTO_TEST_CASE(a_400_for_a_prompt_too_long_is_a_context_window_stop) {
  ApiFailure anthropic = classify_error_response(
      ResponseHead{400},
      ApiErrorBody{"invalid_request_error", "", "prompt is too long: 210000 tokens > 200000 maximum", ""},
      Clock::WallTime{});
  BOOST_TEST(anthropic.context_window);
  ApiFailure openai = classify_error_response(
      ResponseHead{400}, ApiErrorBody{"invalid_request_error", "context_length_exceeded", "too long", ""},
      Clock::WallTime{});
  BOOST_TEST(openai.context_window);
  ApiFailure other = classify_error_response(
      ResponseHead{400}, ApiErrorBody{"invalid_request_error", "", "roles must alternate", ""}, Clock::WallTime{});
  BOOST_TEST(!other.context_window);
}

BOOST_AUTO_TEST_CASE(retry_after_reads_milliseconds_then_seconds_then_an_http_date) {
  const Clock::WallTime now = std::chrono::system_clock::from_time_t(1445412480);  // Wed, 21 Oct 2015 07:28:00 GMT
  BOOST_TEST(parse_retry_after("250", "7", now)->count() == 250);
  BOOST_TEST(parse_retry_after("", "1.5", now)->count() == 1500);
  BOOST_TEST(parse_retry_after("", "Wed, 21 Oct 2015 07:28:09 GMT", now)->count() == 9000);
  BOOST_TEST(!parse_retry_after("", "soon", now).has_value());
  BOOST_TEST(!parse_retry_after("", "", now).has_value());
}

BOOST_AUTO_TEST_CASE(the_server_wait_is_used_when_it_is_within_the_cap) {
  BOOST_TEST(backoff_wait(0, 7000ms, 60s, 0.5).count() == 7000);
  BOOST_TEST(backoff_wait(3, 120000ms, 120s, 0.5).count() == 120000);
  BOOST_TEST(backoff_wait(0, 61000ms, 60s, 0.0).count() == 500);  // beyond the cap: computed
  BOOST_TEST(backoff_wait(0, 0ms, 60s, 0.0).count() == 500);      // zero or negative: computed
}

BOOST_AUTO_TEST_CASE(the_computed_wait_doubles_from_half_a_second_to_eight_with_up_to_a_quarter_off) {
  const long long expected_max[] = {500, 1000, 2000, 4000, 8000, 8000, 8000};
  for (int n = 0; n < 7; ++n) {
    BOOST_TEST_INFO(n);
    BOOST_TEST(backoff_wait(n, std::nullopt, 60s, 0.0).count() == expected_max[n]);
    BOOST_TEST(backoff_wait(n, std::nullopt, 60s, 0.999999).count() >= expected_max[n] * 3 / 4);
    BOOST_TEST(backoff_wait(n, std::nullopt, 60s, 0.999999).count() < expected_max[n]);
  }
}

BOOST_AUTO_TEST_CASE(stream_error_types_are_retried_unless_final) {
  BOOST_TEST((retry_for_stream_error("overloaded_error") == Retry::yes));
  BOOST_TEST((retry_for_stream_error("api_error") == Retry::yes));
  BOOST_TEST((retry_for_stream_error("server_error") == Retry::yes));
  BOOST_TEST((retry_for_stream_error("invalid_request_error") == Retry::no));
  BOOST_TEST((retry_for_stream_error("authentication_error") == Retry::no));
}

BOOST_AUTO_TEST_SUITE_END()
