// libFuzzer target for the JSON-RPC framing a language server's stdout is read with: whatever the
// bytes, and however they are split into reads, JsonRpcReader must not crash, must give the same
// messages for every split, and must stop at its first error; a framed message reads back whole.
#include "diagnostics/json_rpc.h"
#include "fuzz_support.h"

#include <string>
#include <vector>

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

/// The messages (as compact JSON) and whether an error ended the stream, reading `bytes` in pieces
/// of `piece` bytes.
std::pair<std::vector<std::string>, bool> read_all(std::string_view bytes, std::size_t piece) {
  JsonRpcReader reader;
  std::vector<std::string> messages;
  for (std::size_t at = 0; at <= bytes.size(); at += piece) {
    reader.append(bytes.substr(at, piece));
    while (auto next = reader.next()) {
      if (!next->has_value()) return {messages, true};
      messages.push_back((*next)->dump());
    }
  }
  return {messages, false};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = fuzz::as_text(data, size);
  auto whole = read_all(bytes, bytes.size() + 1);
  for (std::size_t piece : {1u, 7u, 64u}) {
    auto split = read_all(bytes, piece);
    if (!whole.second) require(split == whole);  // a clean stream reads the same however it arrives
  }
  for (const std::string& message : whole.first) {
    auto json = parse_json(message);
    require(json.has_value());
    JsonRpcReader again;
    again.append(frame_json_rpc(*json));
    auto next = again.next();
    require(next && next->has_value() && **next == *json);
  }
  return 0;
}
