#pragma once

#include "base/expected.h"
#include "base/json.h"
#include "net/http_client.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// One try of a model call as it went over the wire (--record): the request as sent and the
/// response as streamed, with the API key and the task's secret values replaced by `[redacted]`.
struct WireTry {
  std::string method;
  std::string url;
  std::vector<HttpHeader> request_headers;    // credentials (x-api-key, Authorization, ...) as [redacted]
  std::string request_body;                   // the bytes sent: the provider's JSON
  std::optional<std::string> connect_error;   // set when no response came: why
  int status = 0;
  std::vector<HttpHeader> response_headers;   // those the client reads (content type, request id, retry-after)
  std::string response_body;                  // the bytes read, each line ending in '\n'
  HttpFailure end = HttpFailure::none;        // how reading ended: none when the body ended or the client stopped
  std::string end_error;                      // the failed read's message
};

/// The response headers a recording keeps: those ApiModelClient and the retry policy read.
const std::vector<std::string>& recorded_response_headers();

/// True for a request header that carries a credential (its value is never recorded).
bool is_credential_header(std::string_view name);

/// `wire` with every credential header's value, and every occurrence of those values and of
/// `secrets` in the bodies, headers and messages, replaced by `[redacted]`.
WireTry redacted(WireTry wire, std::vector<std::string> secrets);

/// The try as a recording holds it: the request body as JSON when it is JSON (it always is for
/// the providers), the response body as the text streamed.
Json wire_try_to_json(const WireTry& wire);

/// The try read back; errors name the field.
Expected<WireTry> wire_try_from_json(const Json& json);

/// A request body as strict replay compares it: pretty JSON (one member a line), the secrets
/// redacted, the volatile parts normalised (normalise_volatile).
std::string comparable_body(std::string_view body, const std::vector<std::string>& secrets,
                            const std::string& workspace);

}  // namespace agent_run
