#include "model/model_exchange.h"

#include "report/usage.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace agent_run {

namespace {

Json calls_to_json(const std::vector<ToolCall>& calls) {
  Json json = Json::array();
  for (const ToolCall& call : calls) json.push(Json::object().set("id", call.id).set("name", call.name).set("input", call.input));
  return json;
}

Json thinking_to_json(const std::vector<ThinkingBlock>& blocks) {
  Json json = Json::array();
  for (const ThinkingBlock& block : blocks) {
    json.push(Json::object()
                  .set("thinking", block.thinking)
                  .set("signature", block.signature)
                  .set("redacted_data", block.redacted_data));
  }
  return json;
}

Json message_json(const Message& message) {
  Json results = Json::array();
  for (const ToolResult& result : message.tool_results) {
    Json images = Json::array();
    for (const ImageBlock& image : result.images) {
      images.push(Json::object().set("media_type", image.media_type).set("base64_bytes", image.data_base64.size()));
    }
    results.push(Json::object()
                     .set("call_id", result.call_id)
                     .set("content", result.content)
                     .set("is_error", result.is_error)
                     .set("images", std::move(images)));
  }
  return Json::object()
      .set("role", message.role == Role::user ? "user" : "assistant")
      .set("text", message.text)
      .set("thinking", thinking_to_json(message.thinking))
      .set("tool_calls", calls_to_json(message.tool_calls))
      .set("tool_results", std::move(results));
}

const Json* member(const Json& json, std::string_view key) { return json.is_object() ? json.find(key) : nullptr; }

std::int64_t integer_of(const Json& json, std::string_view key) {
  const Json* value = member(json, key);
  return value && value->is_integer() ? value->as_int() : 0;
}

std::optional<StopReason> stop_reason_named(const std::string& name) {
  for (StopReason reason : {StopReason::end_turn, StopReason::tool_use, StopReason::max_tokens, StopReason::refusal,
                            StopReason::context_window}) {
    if (name == to_string(reason)) return reason;
  }
  return std::nullopt;
}

Usage usage_from_json(const Json& json) {
  Usage usage;
  usage.input_tokens = integer_of(json, "input_tokens");
  usage.output_tokens = integer_of(json, "output_tokens");
  usage.cache_read_input_tokens = integer_of(json, "cache_read_input_tokens");
  usage.cache_creation_input_tokens = integer_of(json, "cache_creation_input_tokens");
  usage.reasoning_tokens = integer_of(json, "reasoning_tokens");
  const Json* estimated = member(json, "estimated");
  usage.estimated = estimated && estimated->is_bool() && estimated->as_bool();
  const Json* cost = member(json, "cost_usd");
  if (cost && cost->is_number()) usage.cost_usd = cost->as_double();
  return usage;
}

bool is_digits(const std::string& text, std::size_t at, std::size_t count) {
  if (at + count > text.size()) return false;
  for (std::size_t i = at; i < at + count; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

/// The length of a date at `at` (YYYY-MM-DD, optionally THH:MM:SS with fractions and a Z), or 0.
std::size_t date_length(const std::string& text, std::size_t at) {
  if (!is_digits(text, at, 4) || text.compare(at + 4, 1, "-") != 0 || !is_digits(text, at + 5, 2) ||
      text.compare(at + 7, 1, "-") != 0 || !is_digits(text, at + 8, 2)) {
    return 0;
  }
  std::size_t end = at + 10;
  if (end < text.size() && text[end] == 'T' && is_digits(text, end + 1, 2) && text.compare(end + 3, 1, ":") == 0) {
    end += 3;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == ':' ||
                                 text[end] == '.' || text[end] == 'Z')) {
      ++end;
    }
  }
  return end - at;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The length of a duration at `at` as test runners print one (`0.001s`, `12ms`, `1.5ms`) standing
/// alone, not inside a word; or 0.
std::size_t duration_length(const std::string& text, std::size_t at) {
  if (at > 0 && (is_word(text[at - 1]) || text[at - 1] == '.')) return 0;
  std::size_t end = at;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  if (end == at) return 0;
  bool fraction = end < text.size() && text[end] == '.';
  if (fraction) {
    std::size_t digits = ++end;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == digits) return 0;
  }
  std::size_t unit = text.compare(end, 2, "ms") == 0 ? 2 : text.compare(end, 1, "s") == 0 && fraction ? 1 : 0;
  if (unit == 0 || (end + unit < text.size() && is_word(text[end + unit]))) return 0;
  return end + unit - at;
}

/// The length of the digits of a process id at `at`, after `pid ` (as bash's background start
/// prints it: `(pid 4242)`) standing alone; or 0.
std::size_t pid_digits(const std::string& text, std::size_t at) {
  if (text.compare(at, 4, "pid ") != 0 || (at > 0 && is_word(text[at - 1]))) return 0;
  std::size_t end = at + 4;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  if (end == at + 4 || (end < text.size() && is_word(text[end]))) return 0;
  return end - at - 4;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

Json exchange_request_to_json(const Conversation& conversation, const std::vector<ToolSchema>& tools) {
  Json messages = Json::array();
  for (const Message& message : conversation.messages) messages.push(message_json(message));
  Json schemas = Json::array();
  for (const ToolSchema& tool : tools) {
    schemas.push(Json::object()
                     .set("name", tool.name)
                     .set("description", tool.description)
                     .set("input_schema", tool.input_schema));
  }
  return Json::object()
      .set("system", conversation.system)
      .set("messages", std::move(messages))
      .set("tools", std::move(schemas));
}

Json exchange_turn_to_json(const ModelTurn& turn) {
  Json usage = Json::object();
  usage.set("input_tokens", turn.usage.input_tokens)
      .set("output_tokens", turn.usage.output_tokens)
      .set("cache_read_input_tokens", turn.usage.cache_read_input_tokens)
      .set("cache_creation_input_tokens", turn.usage.cache_creation_input_tokens)
      .set("reasoning_tokens", turn.usage.reasoning_tokens)
      .set("estimated", turn.usage.estimated)
      .set("cost_usd", turn.usage.cost_usd ? Json(*turn.usage.cost_usd) : Json(nullptr));
  return Json::object()
      .set("text", turn.message.text)
      .set("thinking", thinking_to_json(turn.message.thinking))
      .set("tool_calls", calls_to_json(turn.message.tool_calls))
      .set("stop_reason", to_string(turn.stop_reason))
      .set("usage", std::move(usage))
      .set("truncated_call", turn.truncated_call);
}

Expected<ModelTurn> exchange_turn_from_json(const Json& json) {
  if (!json.is_object()) return make_error("the response is not an object");
  ModelTurn turn;
  turn.message.role = Role::assistant;
  turn.message.text = json.get_string("text");
  turn.truncated_call = json.get_string("truncated_call");
  auto reason = stop_reason_named(json.get_string("stop_reason"));
  if (!reason) return make_error("response.stop_reason: unknown '" + json.get_string("stop_reason") + "'");
  turn.stop_reason = *reason;
  if (const Json* calls = member(json, "tool_calls"); calls && calls->is_array()) {
    for (const Json& call : calls->as_array()) {
      const Json* input = member(call, "input");
      turn.message.tool_calls.push_back(
          ToolCall{call.get_string("id"), call.get_string("name"), input ? *input : Json::object()});
    }
  }
  if (const Json* blocks = member(json, "thinking"); blocks && blocks->is_array()) {
    for (const Json& block : blocks->as_array()) {
      turn.message.thinking.push_back(
          ThinkingBlock{block.get_string("thinking"), block.get_string("signature"), block.get_string("redacted_data")});
    }
  }
  if (const Json* usage = member(json, "usage")) turn.usage = usage_from_json(*usage);
  return turn;
}

std::string normalise_volatile(std::string text, const std::string& workspace) {
  if (!workspace.empty()) {
    for (std::size_t at = text.find(workspace); at != std::string::npos; at = text.find(workspace, at)) {
      text.replace(at, workspace.size(), "<workspace>");
      at += 11;
    }
  }
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (std::size_t length = date_length(text, i)) {
      out += "<date>";
      i += length;
    } else if (std::size_t digits = pid_digits(text, i)) {
      out += "pid <pid>";
      i += 4 + digits;
    } else if (std::size_t duration = duration_length(text, i)) {
      out += "<duration>";
      i += duration;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string first_difference(const std::string& recorded, const std::string& sent) {
  std::vector<std::string> before = lines_of(recorded);
  std::vector<std::string> after = lines_of(sent);
  std::size_t i = 0;
  while (i < before.size() && i < after.size() && before[i] == after[i]) ++i;
  if (i == before.size() && i == after.size()) return {};
  // A long line (the system prompt is one) is shown around its first differing character.
  std::size_t column = 0;
  if (i < before.size() && i < after.size()) {
    while (column < before[i].size() && column < after[i].size() && before[i][column] == after[i][column]) ++column;
  }
  std::size_t from = column > 80 ? column - 80 : 0;
  auto cut = [from](const std::string& line) {
    std::string shown = from > 0 ? "..." + line.substr(std::min(from, line.size())) : line;
    return shown.size() > 240 ? shown.substr(0, 240) + "..." : shown;
  };
  std::string diff = "@@ line " + std::to_string(i + 1) + (from > 0 ? ", from column " + std::to_string(from + 1) : "") +
                     " @@\n";
  if (i > 0 && from == 0) diff += "  " + cut(before[i - 1]) + "\n";
  diff += i < before.size() ? "- " + cut(before[i]) + "\n" : "- (the recorded request ends here)\n";
  diff += i < after.size() ? "+ " + cut(after[i]) + "\n" : "+ (the request sent ends here)\n";
  return diff;
}

}  // namespace agent_run
