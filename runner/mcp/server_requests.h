#pragma once

#include "base/json.h"
#include "mcp/elicitation.h"
#include "mcp/json_rpc_message.h"

#include <filesystem>
#include <optional>

namespace agent_run {

/// What the client offers a server for the requests the server may make of it.
struct ClientOffer {
  std::filesystem::path root;      // roots/list answers with it; empty: no roots
  ElicitationHandler elicitation;  // empty: every elicitation is declined
};

/// The client's capabilities for `initialize`, as the offer makes them: roots when there is a
/// root, elicitation (form mode) always; never sampling.
Json client_capabilities(const ClientOffer& offer);

/// The answer to one request the server made (`request.kind` is request): roots/list with the
/// root, elicitation/create by the handler (a URL to open, or no handler, is declined: nobody is
/// there), ping; sampling and everything else refused with method-not-found. An elicitation
/// is recorded in `elicitation`.
Json answer_server_request(const JsonRpcMessage& request, const ClientOffer& offer,
                           std::optional<ElicitationRecord>& elicitation);

}  // namespace agent_run
