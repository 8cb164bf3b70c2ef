#pragma once

#include "base/json.h"
#include "model/provider_api.h"

#include <string>
#include <string_view>
#include <variant>

namespace agent_run {

// Pieces both stream decoders share: reading an event's JSON, and the failures a stream can end in.

/// The event's data as JSON, or a `stream.malformed` failure quoting the bad payload.
std::variant<Json, ApiFailure> parse_event_data(const SseEvent& event);

/// A decode step that fails the try with `failure`.
DecodeStep failed_step(ApiFailure failure);

/// The failure an in-stream error object means: `{"error":{"type","message","code"}}` (both
/// providers' shape); retried when the error is transient.
ApiFailure failure_of_error_event(const Json& data);

/// A tool call's streamed input: "" is `{}`; anything else must be a JSON object.
Expected<Json> parse_tool_input(std::string_view text);

/// The failure for a finished tool call whose input is not valid JSON (retried: a glitch).
ApiFailure malformed_tool_input(const std::string& tool, const std::string& why);

/// The failure for a body that ended before the provider's final event (a dropped connection).
ApiFailure incomplete_stream(std::string_view final_event);

/// A body that is not the API's JSON (a proxy's HTML page, say), cut to one readable line.
std::string error_text_of_body(std::string_view body);

}  // namespace agent_run
