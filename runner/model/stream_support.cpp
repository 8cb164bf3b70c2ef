#include "model/stream_support.h"

#include "base/text.h"

namespace agent_run {

namespace {

constexpr std::size_t k_quote_bytes = 200;

std::string one_line(std::string_view text, std::size_t max_bytes) {
  std::string line(trim(text).substr(0, max_bytes));
  for (char& c : line) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return repair_utf8(line) + (trim(text).size() > max_bytes ? "..." : "");
}

}  // namespace

std::variant<Json, ApiFailure> parse_event_data(const SseEvent& event) {
  auto json = parse_json(event.data);
  if (json && json->is_object()) return std::move(*json);
  ApiFailure failure;
  failure.status = 200;
  failure.error_type = "stream.malformed";
  failure.message = "a `" + event.event + "` event's data is not a JSON object (" +
                    (json ? std::string("another JSON value") : json.error().message) +
                    "): " + one_line(event.data, k_quote_bytes);
  failure.retry = Retry::yes;
  return failure;
}

DecodeStep failed_step(ApiFailure failure) { return DecodeStep{DecodeStep::Kind::failed, std::move(failure)}; }

ApiFailure failure_of_error_event(const Json& data) {
  ApiFailure failure;
  failure.status = 200;
  const Json* error = data.find("error");
  ApiErrorBody body;
  if (error && error->is_object()) {
    body.type = error->get_string("type");
    body.code = error->get_string("code");
    body.message = error->get_string("message");
  }
  failure.error_type = !body.type.empty() ? body.type : !body.code.empty() ? body.code : "stream.error";
  failure.message = body.message.empty() ? one_line(data.dump(), k_quote_bytes) : body.message;
  failure.billing = is_billing_error(body);
  failure.retry = failure.billing ? Retry::no : retry_for_stream_error(failure.error_type);
  return failure;
}

Expected<Json> parse_tool_input(std::string_view text) {
  if (trim(text).empty()) return Json::object();
  auto json = parse_json(text);
  if (!json) return json.error();
  if (!json->is_object()) return make_error("it is not a JSON object: " + one_line(text, k_quote_bytes));
  return json;
}

ApiFailure malformed_tool_input(const std::string& tool, const std::string& why) {
  ApiFailure failure;
  failure.status = 200;
  failure.error_type = "stream.malformed";
  failure.message = "the input of the call to `" + tool + "` is not valid JSON: " + why;
  failure.retry = Retry::yes;
  return failure;
}

ApiFailure incomplete_stream(std::string_view final_event) {
  ApiFailure failure;
  failure.status = 200;
  failure.error_type = "stream.incomplete";
  failure.message = "the response stream ended before its final `" + std::string(final_event) +
                    "` event: the connection was closed mid-way";
  failure.retry = Retry::yes;
  return failure;
}

std::string error_text_of_body(std::string_view body) {
  return trim(body).empty() ? std::string("(empty body)") : one_line(body, k_quote_bytes);
}

}  // namespace agent_run
