#include "model/wire_try.h"

#include "base/redaction.h"
#include "base/text.h"
#include "model/model_exchange.h"

#include <array>
#include <utility>

namespace agent_run {

namespace {

constexpr std::array<std::pair<HttpFailure, const char*>, 5> k_ends = {{{HttpFailure::none, "complete"},
                                                                       {HttpFailure::timeout, "timeout"},
                                                                       {HttpFailure::deadline, "deadline"},
                                                                       {HttpFailure::broken, "broken"},
                                                                       {HttpFailure::too_long, "too_long"}}};

Json headers_to_json(const std::vector<HttpHeader>& headers) {
  Json json = Json::object();
  for (const HttpHeader& header : headers) json.set(header.name, header.value);
  return json;
}

std::vector<HttpHeader> headers_from_json(const Json* json) {
  std::vector<HttpHeader> headers;
  if (!json || !json->is_object()) return headers;
  for (const auto& [name, value] : json->as_object()) {
    if (value.is_string()) headers.push_back(HttpHeader{name, value.as_string()});
  }
  return headers;
}

/// The values a credential header carries, bare too (`Bearer KEY` gives both).
void add_credential_values(const WireTry& wire, std::vector<std::string>& secrets) {
  for (const HttpHeader& header : wire.request_headers) {
    if (!is_credential_header(header.name) || header.value.empty()) continue;
    secrets.push_back(header.value);
    if (auto space = header.value.find(' '); space != std::string::npos) secrets.push_back(header.value.substr(space + 1));
  }
}

}  // namespace

const std::vector<std::string>& recorded_response_headers() {
  static const std::vector<std::string> k_names = {"content-type",   "request-id",     "x-request-id",
                                                   "retry-after",    "retry-after-ms", "x-should-retry"};
  return k_names;
}

bool is_credential_header(std::string_view name) {
  const std::string lower = to_lower(std::string(name));
  return lower == "x-api-key" || lower == "authorization" || lower == "api-key" || lower == "proxy-authorization" ||
         lower == "cookie" || lower == "x-goog-api-key";
}

WireTry redacted(WireTry wire, std::vector<std::string> secrets) {
  add_credential_values(wire, secrets);
  for (HttpHeader& header : wire.request_headers) {
    header.value = is_credential_header(header.name) ? "[redacted]" : redact_values(header.value, secrets);
  }
  for (HttpHeader& header : wire.response_headers) header.value = redact_values(header.value, secrets);
  wire.url = redact_values(wire.url, secrets);
  wire.request_body = redact_values(wire.request_body, secrets);
  wire.response_body = redact_values(wire.response_body, secrets);
  wire.end_error = redact_values(wire.end_error, secrets);
  if (wire.connect_error) wire.connect_error = redact_values(*wire.connect_error, secrets);
  return wire;
}

Json wire_try_to_json(const WireTry& wire) {
  auto body = parse_json(wire.request_body);
  Json request = Json::object()
                     .set("method", wire.method)
                     .set("url", url_for_messages(wire.url))
                     .set("headers", headers_to_json(wire.request_headers))
                     .set("body", body ? *body : Json(wire.request_body));
  Json json = Json::object().set("request", std::move(request));
  if (wire.connect_error) return json.set("response", nullptr).set("error", *wire.connect_error);
  const char* end = "complete";
  for (const auto& [failure, name] : k_ends) {
    if (failure == wire.end) end = name;
  }
  Json response = Json::object()
                      .set("status", wire.status)
                      .set("headers", headers_to_json(wire.response_headers))
                      .set("body", wire.response_body)
                      .set("end", end);
  if (wire.end != HttpFailure::none) response.set("error", wire.end_error);
  return json.set("response", std::move(response));
}

Expected<WireTry> wire_try_from_json(const Json& json) {
  const Json* request = json.is_object() ? json.find("request") : nullptr;
  const Json* response = json.is_object() ? json.find("response") : nullptr;
  if (!request || !request->is_object()) return make_error("a try has no 'request' object");
  if (!response) return make_error("a try has no 'response' (null when no response came)");
  WireTry wire;
  wire.method = request->get_string("method");
  wire.url = request->get_string("url");
  wire.request_headers = headers_from_json(request->find("headers"));
  const Json* body = request->find("body");
  wire.request_body = !body ? "" : body->is_string() ? body->as_string() : body->dump();
  if (response->is_null()) {
    wire.connect_error = json.get_string("error");
    return wire;
  }
  if (!response->is_object()) return make_error("a try's 'response' is neither an object nor null");
  const Json* status = response->find("status");
  if (!status || !status->is_integer()) return make_error("a try's response has no integer 'status'");
  wire.status = static_cast<int>(status->as_int());
  wire.response_headers = headers_from_json(response->find("headers"));
  wire.response_body = response->get_string("body");
  const std::string end = response->get_string("end", "complete");
  bool known = false;
  for (const auto& [failure, name] : k_ends) {
    if (end != name) continue;
    wire.end = failure;
    known = true;
  }
  if (!known) return make_error("a try's response.end is '" + end + "', not complete, timeout, deadline, broken or too_long");
  wire.end_error = response->get_string("error");
  return wire;
}

std::string comparable_body(std::string_view body, const std::vector<std::string>& secrets,
                            const std::string& workspace) {
  std::string text = redact_values(std::string(body), secrets);
  if (auto json = parse_json(text)) text = json->dump_pretty();
  return normalise_volatile(std::move(text), workspace);
}

}  // namespace agent_run
