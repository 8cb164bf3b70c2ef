// libFuzzer target for what the MCP client reads from a server: a stdio server's stdout split into
// lines (mcp/message_lines), each line's JSON-RPC messages (mcp/json_rpc_message) and the results
// a client reads further (tools/list pages, tools/call results). Whatever the bytes: no crash; the
// same lines however the bytes arrive, none holding '\n' or over the cap; a message read once reads
// back the same after framing it again; a call result keeps no more images
// with data than its cap.
#include "fuzz_support.h"
#include "mcp/call_result.h"
#include "mcp/json_rpc_message.h"
#include "mcp/message_lines.h"
#include "mcp/tool_list.h"

#include <string>
#include <utility>
#include <vector>

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

constexpr std::size_t k_max_line_bytes = 4096;

/// The lines, and whether an over-long line ended the stream, reading `bytes` in pieces of `piece`.
std::pair<std::vector<std::string>, bool> lines_of(std::string_view bytes, std::size_t piece) {
  MessageLines reader(k_max_line_bytes);
  std::vector<std::string> lines;
  for (std::size_t at = 0; at <= bytes.size(); at += piece) {
    reader.append(bytes.substr(at, piece));
    while (auto next = reader.next()) {
      if (!next->has_value()) return {lines, true};
      lines.push_back(**next);
    }
  }
  return {lines, false};
}

void check_result_readers(const Json& result) {
  (void)read_tool_page(result);
  CallResultLimits limits{.max_text_bytes = 256, .max_image_bytes = 64, .max_images = 2};
  McpCallResult call = read_call_result(result, limits);
  std::size_t images = 0;
  for (const McpContent& block : call.content) {
    // What the model is shown (tools/mcp_tool): an image block without data is not an image.
    if (block.kind == McpContentKind::image && !block.dropped && !block.data.empty()) ++images;
  }
  require(images <= limits.max_images);
}

/// A message read from `value` reads back the same from its framed line.
void check_message(const Json& value) {
  auto message = read_message(value);
  if (!message) {
    require(!message.error().message.empty());
    return;
  }
  if (message->kind == MessageKind::result) check_result_readers(message->result);
  if (message->kind == MessageKind::error) require(!describe_error(*message).empty());
  const std::string line = message_line(value);
  require(!line.empty() && line.back() == '\n' && line.find('\n') == line.size() - 1);
  auto again = messages_in(std::string_view(line).substr(0, line.size() - 1));
  // the same JSON (a whole double such as 65.0 dumps as 65 and reads back an integer, as json_fuzzer knows)
  require(again.has_value() && again->size() == 1 && again->front().dump() == value.dump());
  auto reread = read_message(again->front());
  require(reread.has_value() && reread->kind == message->kind && reread->id == message->id &&
          reread->method == message->method && reread->error_code == message->error_code);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = fuzz::as_text(data, size);
  auto whole = lines_of(bytes, bytes.size() + 1);
  for (std::size_t piece : {1u, 7u, 64u}) require(lines_of(bytes, piece) == whole);
  for (const std::string& line : whole.first) {
    require(line.size() <= k_max_line_bytes && line.find('\n') == std::string::npos);
    auto messages = messages_in(line);
    if (!messages) continue;
    for (const Json& value : *messages) check_message(value);
  }
  return 0;
}
