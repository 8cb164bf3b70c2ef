#include "mcp/server_requests.h"

#include "base/file_uri.h"

namespace agent_run {

namespace {

constexpr const char* k_no_human = "no human in the loop: agent-run runs without a person to ask";

ElicitationRequest read_elicitation(const Json& params) {
  ElicitationRequest request;
  request.message = params.get_string("message");
  request.mode = params.get_string("mode", "form");
  request.url = params.get_string("url");
  if (const Json* schema = params.find("requestedSchema")) request.requested_schema = *schema;
  return request;
}

ElicitationAnswer decide_elicitation(const ElicitationRequest& request, const ClientOffer& offer) {
  if (request.mode == "url") {
    return ElicitationAnswer{ElicitationAction::decline, nullptr, "url",
                             "a URL to open needs a person; " + std::string(k_no_human)};
  }
  if (!offer.elicitation) return ElicitationAnswer{ElicitationAction::decline, nullptr, "none", k_no_human};
  return offer.elicitation(request);
}

Json answer_elicitation(const JsonRpcMessage& request, const ClientOffer& offer,
                        std::optional<ElicitationRecord>& record) {
  ElicitationRequest asked = read_elicitation(request.params);
  ElicitationAnswer answer = decide_elicitation(asked, offer);
  record = ElicitationRecord{asked.message, answer.action, answer.answered_by, answer.reason};
  Json result = Json::object().set("action", to_string(answer.action));
  if (answer.action == ElicitationAction::accept) {
    result.set("content", answer.content.is_object() ? answer.content : Json::object());
  }
  return result_message(request.id, std::move(result));
}

Json roots(const ClientOffer& offer) {
  Json root = Json::object().set("uri", path_to_uri(offer.root)).set("name", offer.root.filename().string());
  return Json::object().set("roots", Json(Json::Array{std::move(root)}));
}

}  // namespace

Json client_capabilities(const ClientOffer& offer) {
  Json capabilities = Json::object();
  if (!offer.root.empty()) capabilities.set("roots", Json::object().set("listChanged", false));
  capabilities.set("elicitation", Json::object());
  return capabilities;
}

Json answer_server_request(const JsonRpcMessage& request, const ClientOffer& offer,
                           std::optional<ElicitationRecord>& elicitation) {
  if (request.method == "ping") return result_message(request.id, Json::object());
  if (request.method == "roots/list" && !offer.root.empty()) return result_message(request.id, roots(offer));
  if (request.method == "elicitation/create") return answer_elicitation(request, offer, elicitation);
  if (request.method == "sampling/createMessage") {
    return error_message(request.id, json_rpc_code::k_method_not_found,
                         "agent-run does not let MCP servers use the model (sampling is not offered)");
  }
  return error_message(request.id, json_rpc_code::k_method_not_found, "not supported by agent-run: " + request.method);
}

}  // namespace agent_run
