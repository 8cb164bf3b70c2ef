#pragma once

#include "base/expected.h"
#include "base/json.h"
#include "model/conversation.h"
#include "tools/tool_call.h"

#include <string>
#include <vector>

namespace agent_run {

// The scripted model's exchange as `--record` keeps it and `--replay` plays it back (it has no
// wire; a model behind an API is recorded as sent and streamed, see wire_try.h): the request as
// the agent loop sent it (provider-neutral: system prompt, messages, tool schemas) and the turn
// played. Also what both kinds of replay share: the volatile parts normalised, the first difference.

/// The request: system, messages (text, thinking, tool calls, tool results, images by type and
/// size) and the tools offered.
Json exchange_request_to_json(const Conversation& conversation, const std::vector<ToolSchema>& tools);

/// The answer, whole: message (text, thinking with signatures, tool calls), stop reason, usage.
Json exchange_turn_to_json(const ModelTurn& turn);

/// The answer read back; errors name the field.
Expected<ModelTurn> exchange_turn_from_json(const Json& json);

/// `text` with what differs from run to run replaced: the attempt's workspace folder by
/// `<workspace>`, dates (YYYY-MM-DD, with a time after a T) by `<date>`, durations as test runners
/// print them (`0.001s`, `12ms`) by `<duration>`, process ids (`pid 4242`, as a background start
/// prints them) by `pid <pid>`. Tool-call ids need none: a replay sends back the recorded ones.
std::string normalise_volatile(std::string text, const std::string& workspace);

/// The first difference between two texts as a small line diff: the line before it, then `-` the
/// recorded line and `+` the one sent now (a long line from a little before its first differing
/// character, cut after 240); empty when they are equal.
std::string first_difference(const std::string& recorded, const std::string& sent);

}  // namespace agent_run
