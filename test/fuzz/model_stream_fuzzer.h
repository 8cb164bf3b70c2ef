#pragma once

// The body of both model stream fuzzers: the bytes as a text/event-stream body, read line by line
// into events and fed to a provider's decoder until it is done or fails, then finished.

#include "fuzz_support.h"
#include "model/provider_api.h"

#include <variant>

namespace agent_run::fuzz {

/// Decodes `body` with `api`'s decoder; whatever the bytes, it must not crash, a failure must say
/// what went wrong, and a turn's tool calls must have a name and an object for input.
inline void decode_stream(const ProviderApi& api, std::string_view body) {
  std::unique_ptr<StreamDecoder> decoder = api.make_decoder();
  SseParser parser;
  for (std::string_view line : lines_of(body)) {
    auto event = parser.feed_line(line);
    if (!event) continue;
    DecodeStep step = decoder->feed(*event);
    if (step.kind == DecodeStep::Kind::failed) {
      require(!step.failure.error_type.empty());
      return;
    }
    if (step.kind == DecodeStep::Kind::done) break;
  }
  DecodedTurn turn = decoder->finish();
  if (const ApiFailure* failure = std::get_if<ApiFailure>(&turn)) {
    require(!failure->error_type.empty());
    return;
  }
  for (const ToolCall& call : std::get<ModelTurn>(turn).message.tool_calls) require(call.input.is_object());
  (void)decoder->response_model();
  (void)api.parse_error_body(body);
}

}  // namespace agent_run::fuzz
