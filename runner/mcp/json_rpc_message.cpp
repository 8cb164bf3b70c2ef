#include "mcp/json_rpc_message.h"

namespace agent_run {

namespace {

bool is_valid_id(const Json& id) { return id.is_string() || id.is_integer() || id.is_null(); }

Expected<JsonRpcMessage> read_error(const Json& value, JsonRpcMessage message) {
  const Json* error = value.find("error");
  const Json* code = error ? error->find("code") : nullptr;
  if (!error->is_object() || !code || !code->is_integer()) {
    return make_error("a JSON-RPC error without an integer code: " + error->dump().substr(0, 200));
  }
  message.kind = MessageKind::error;
  message.error_code = code->as_int();
  message.error_message = error->get_string("message");
  if (const Json* data = error->find("data")) message.error_data = *data;
  return message;
}

}  // namespace

Expected<JsonRpcMessage> read_message(const Json& value) {
  if (!value.is_object()) return make_error("a JSON-RPC message that is not an object");
  JsonRpcMessage message;
  const Json* id = value.find("id");
  if (id) {
    if (!is_valid_id(*id)) return make_error("a JSON-RPC id that is neither a number nor a string: " + id->dump());
    message.id = *id;
  }
  if (const Json* method = value.find("method")) {
    if (!method->is_string()) return make_error("a JSON-RPC method that is not a string");
    message.method = method->as_string();
    message.kind = id && !id->is_null() ? MessageKind::request : MessageKind::notification;
    if (const Json* params = value.find("params")) message.params = *params;
    return message;
  }
  if (value.find("error")) return read_error(value, std::move(message));
  if (const Json* result = value.find("result"); result && id && !id->is_null()) {
    message.kind = MessageKind::result;
    message.result = *result;
    return message;
  }
  return make_error("a JSON-RPC message with neither a method nor an id and a result");
}

Expected<std::vector<Json>> messages_in(std::string_view text) {
  Expected<Json> parsed = parse_json(text);
  if (!parsed) return parsed.error();
  if (parsed->is_object()) return std::vector<Json>{std::move(*parsed)};
  if (parsed->is_array() && !parsed->as_array().empty()) return std::move(parsed->as_array());
  return make_error("JSON that is not a JSON-RPC message or batch");
}

Json request_message(std::int64_t id, std::string_view method, Json params) {
  Json message = Json::object().set("jsonrpc", "2.0").set("id", id).set("method", method);
  if (!params.is_null()) message.set("params", std::move(params));
  return message;
}

Json notification_message(std::string_view method, Json params) {
  Json message = Json::object().set("jsonrpc", "2.0").set("method", method);
  if (!params.is_null()) message.set("params", std::move(params));
  return message;
}

Json result_message(const Json& id, Json result) {
  return Json::object().set("jsonrpc", "2.0").set("id", id).set("result", std::move(result));
}

Json error_message(const Json& id, std::int64_t code, std::string_view message) {
  Json error = Json::object().set("code", code).set("message", message);
  return Json::object().set("jsonrpc", "2.0").set("id", id).set("error", std::move(error));
}

std::string describe_error(const JsonRpcMessage& error) {
  std::string text = "error " + std::to_string(error.error_code);
  if (!error.error_message.empty()) text += ": " + error.error_message;
  return text;
}

}  // namespace agent_run
