#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// The JSON-RPC 2.0 error codes the MCP client sends or reads.
namespace json_rpc_code {
inline constexpr std::int64_t k_parse_error = -32700;
inline constexpr std::int64_t k_invalid_request = -32600;
inline constexpr std::int64_t k_method_not_found = -32601;
inline constexpr std::int64_t k_invalid_params = -32602;
inline constexpr std::int64_t k_internal_error = -32603;
}  // namespace json_rpc_code

/// What a JSON-RPC message is, by the members it has.
enum class MessageKind {
  request,       // method and id: the peer waits for an answer
  notification,  // method, no id
  result,        // id and result: the answer to a request
  error,         // id (maybe null) and error: a request that failed
};

/// One JSON-RPC 2.0 message, read into its parts. Key order does not matter; ids are kept as
/// sent (a number or a string), since a server's request ids are its own.
struct JsonRpcMessage {
  MessageKind kind = MessageKind::notification;
  Json id;                      // request, result, error
  std::string method;           // request, notification
  Json params;                  // request, notification; null when absent
  Json result;                  // result
  std::int64_t error_code = 0;  // error
  std::string error_message;    // error
  Json error_data;              // error; null when absent
};

/// Reads one message; an error names what is wrong with it (no method and no id, an error
/// without a code, ...).
Expected<JsonRpcMessage> read_message(const Json& value);

/// The messages in one payload (a line of stdio, an HTTP body, an SSE event's data): an object is
/// one message, an array a batch of them. Fails on text that is not JSON or holds anything else.
Expected<std::vector<Json>> messages_in(std::string_view text);

Json request_message(std::int64_t id, std::string_view method, Json params);
Json notification_message(std::string_view method, Json params);
Json result_message(const Json& id, Json result);
Json error_message(const Json& id, std::int64_t code, std::string_view message);

/// "error -32602: Tool x not found", for people.
std::string describe_error(const JsonRpcMessage& error);

}  // namespace agent_run
