#pragma once

#include "base/json.h"

#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// `message` framed for a language server's stdin: a Content-Length header, a blank line, the JSON.
std::string frame_json_rpc(const Json& message);

/// Splits a language server's stdout into JSON-RPC messages (Content-Length framing). Bytes are
/// added as they arrive; each complete message is taken out in order.
class JsonRpcReader {
 public:
  /// Adds the next bytes read from the server.
  void append(std::string_view bytes) { m_buffer.append(bytes); }
  /// The next complete message, nullopt when more bytes are needed, or an error for garbage (a
  /// header without Content-Length, an absurd length, a body that is not JSON). After an error
  /// the stream cannot be trusted any more.
  std::optional<Expected<Json>> next();

 private:
  std::string m_buffer;
};

}  // namespace agent_run
