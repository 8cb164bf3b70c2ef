#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// `message` framed for an MCP server's stdin: compact JSON on one line (JSON escapes every
/// newline inside strings), then '\n'.
std::string message_line(const Json& message);

/// Splits a stdio server's stdout into lines, one JSON-RPC message (or batch) each. Bytes are
/// added as they arrive; complete lines are taken out in order, without '\n' (nor a '\r' before
/// it). A line longer than the cap is an error: the stream cannot be trusted after it.
class MessageLines {
 public:
  explicit MessageLines(std::size_t max_line_bytes) : m_max_line_bytes(max_line_bytes) {}

  void append(std::string_view bytes) { m_buffer.append(bytes); }
  /// The next complete line, nullopt when more bytes are needed, or an error for a line over the cap.
  std::optional<Expected<std::string>> next();

 private:
  std::size_t m_max_line_bytes;
  std::string m_buffer;
  std::size_t m_scanned = 0;  // bytes of m_buffer known to hold no '\n'
};

}  // namespace agent_run
