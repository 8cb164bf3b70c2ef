#include "mcp/mcp_client.h"

#include "base/redaction.h"
#include "base/text.h"

#include <cstdio>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds k_answer_patience{10000};  // to send the answer to a server's request
constexpr std::chrono::milliseconds k_cancel_patience{1000};
constexpr std::chrono::milliseconds k_reason_patience{1000};  // for a dead server's reason, after a failed send
constexpr std::size_t k_kept_log_messages = 50;
constexpr std::size_t k_log_text_bytes = 2000;
constexpr std::size_t k_stderr_in_error_bytes = 600;

std::string seconds_text(SteadyClock::duration duration) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s",
                std::chrono::duration_cast<std::chrono::milliseconds>(duration).count() / 1000.0);
  return text;
}

bool is_supported(const std::string& version) {
  for (const std::string& known : k_mcp_protocol_versions) {
    if (known == version) return true;
  }
  return false;
}

}  // namespace

McpClient::McpClient(std::unique_ptr<McpTransport> transport, McpClientSettings settings)
    : m_transport(std::move(transport)), m_settings(std::move(settings)) {}

McpClient::~McpClient() { close(); }

Expected<std::unique_ptr<McpClient>> McpClient::connect(std::unique_ptr<McpTransport> transport,
                                                        McpClientSettings settings) {
  std::unique_ptr<McpClient> client(new McpClient(std::move(transport), std::move(settings)));
  Expected<void> opened = client->m_transport->open(*client);
  if (!opened) return client->failure("cannot start the MCP server: " + opened.error().message);
  Expected<void> ready = client->initialize(SteadyClock::now() + client->m_settings.startup_timeout);
  if (ready) return client;
  std::string why = ready.error().message;
  client->close();
  std::string said(trim(client->m_transport->facts().stderr_tail));
  if (!said.empty() && why.find("its stderr ends") == std::string::npos) {
    why += "; its stderr ends: " + tail_of(said, k_stderr_in_error_bytes);
  }
  return client->failure(why);
}

Expected<void> McpClient::initialize(TimePoint deadline) {
  std::vector<std::string> refusals;
  for (const std::string& version : k_mcp_protocol_versions) {
    Expected<JsonRpcMessage> answer = initialize_with(version, deadline);
    if (!answer) return answer.error();
    if (answer->kind == MessageKind::error) {  // some servers refuse a version instead of offering theirs
      refusals.push_back(version + ": " + describe_error(*answer));
      continue;
    }
    AR_TRY_ASSIGN(McpServerInfo server, accept_server(*answer));
    Expected<void> told = m_transport->send(notification_message("notifications/initialized", nullptr), deadline);
    if (!told) return failure("the MCP server did not take notifications/initialized: " + told.error().message);
    m_transport->initialized(server.protocol_version, deadline);
    if (m_server.protocol_version.empty()) m_server = std::move(server);  // a new session keeps the first's facts
    return {};
  }
  return failure("the MCP server refused initialize with every protocol version agent-run speaks (" +
                 join(refusals, "; ") + ")");
}

Expected<JsonRpcMessage> McpClient::initialize_with(const std::string& version, TimePoint deadline) {
  Json client_info = Json::object().set("name", m_settings.client_name).set("version", m_settings.client_version);
  Json params = Json::object()
                    .set("protocolVersion", version)
                    .set("capabilities", client_capabilities(m_settings.offer))
                    .set("clientInfo", std::move(client_info));
  return request("initialize", std::move(params), deadline);
}

/// Takes the server's initialize answer: a version the client speaks (a lower one than asked is
/// fine), and what the server says about itself.
Expected<McpServerInfo> McpClient::accept_server(const JsonRpcMessage& answer) const {
  const Json& result = answer.result;
  McpServerInfo server;
  server.protocol_version = result.get_string("protocolVersion");
  if (!is_supported(server.protocol_version)) {
    return failure("the MCP server speaks protocol version '" + server.protocol_version + "'; agent-run speaks " +
                   join(k_mcp_protocol_versions, ", "));
  }
  if (const Json* info = result.find("serverInfo")) {
    server.name = info->get_string("name");
    server.title = info->get_string("title");
    server.version = info->get_string("version");
  }
  server.instructions = result.get_string("instructions");
  if (const Json* capabilities = result.find("capabilities"); capabilities && capabilities->is_object()) {
    server.capabilities = *capabilities;
  }
  return server;
}

Expected<std::vector<McpToolInfo>> McpClient::list_tools(std::uint64_t* listed_at) {
  // A change announced while the list was being read may have come too late for it: read again.
  constexpr int k_rounds = 3;
  for (int round = 1;; ++round) {
    std::uint64_t before = tools_generation();
    Expected<std::vector<McpToolInfo>> tools = list_every_page();
    if (!tools || tools_generation() == before || round == k_rounds) {
      if (tools && listed_at) *listed_at = before;
      return tools;
    }
  }
}

Expected<std::vector<McpToolInfo>> McpClient::list_every_page() {
  const ToolListLimits& limits = m_settings.tool_list;
  std::vector<McpToolInfo> tools;
  std::size_t bytes = 0;
  std::optional<std::string> cursor;
  for (int page = 1;; ++page) {
    if (page > limits.max_pages) {
      return failure("the MCP server's tools/list goes on for more than " + std::to_string(limits.max_pages) +
                     " pages");
    }
    Json params = cursor ? Json::object().set("cursor", *cursor) : Json();
    Expected<JsonRpcMessage> answer =
        request("tools/list", std::move(params), SteadyClock::now() + m_settings.startup_timeout);
    if (!answer) return answer.error();
    if (answer->kind == MessageKind::error)
      return failure("the MCP server answered tools/list with " + describe_error(*answer));
    Expected<ToolPage> read = read_tool_page(answer->result);
    if (!read) return failure("the MCP server's tools/list is broken: " + read.error().message);
    bytes += read->bytes;
    for (McpToolInfo& tool : read->tools) tools.push_back(std::move(tool));
    if (tools.size() > limits.max_tools || bytes > limits.max_bytes) {
      return failure("the MCP server offers more than " + std::to_string(limits.max_tools) + " tools or " +
                     std::to_string(limits.max_bytes) + " bytes of tool schemas (" + std::to_string(tools.size()) +
                     " tools, " + std::to_string(bytes) + " bytes by page " + std::to_string(page) +
                     "); agent-run does not offer the model a list this large");
    }
    if (!read->next_cursor) return tools;
    cursor = read->next_cursor;
  }
}

McpCallResult McpClient::call_tool(const std::string& name, const Json& arguments, std::chrono::milliseconds timeout) {
  Json params = Json::object().set("name", name).set("arguments", arguments.is_object() ? arguments : Json::object());
  int progress = 0;
  Expected<JsonRpcMessage> answer = request("tools/call", std::move(params), SteadyClock::now() + timeout, &progress);
  McpCallResult result;
  if (!answer) {
    result = failed_call(answer.error().message);
  } else if (answer->kind == MessageKind::error) {
    result = failed_call("the MCP server answered with " + describe_error(*answer));
  } else {
    result = read_call_result(answer->result, m_settings.results);
  }
  result.progress_updates = progress;
  return redacted(std::move(result));
}

bool McpClient::offers_resources() const {
  const Json* resources = m_server.capabilities.find("resources");
  return resources && resources->is_object();
}

Expected<ResourcePage> McpClient::list_resources(ResourceListKind kind, const std::optional<std::string>& cursor,
                                                 std::chrono::milliseconds timeout) {
  const std::string method = kind == ResourceListKind::templates ? "resources/templates/list" : "resources/list";
  Json params = cursor ? Json::object().set("cursor", *cursor) : Json();
  Expected<JsonRpcMessage> answer = request(method, std::move(params), SteadyClock::now() + timeout);
  if (!answer) return answer.error();
  if (answer->kind == MessageKind::error)
    return failure("the MCP server answered " + method + " with " + describe_error(*answer));
  Expected<ResourcePage> page = read_resource_page(answer->result, kind);
  if (!page) return failure("the MCP server's " + method + " is broken: " + page.error().message);
  for (McpResourceInfo& resource : page->resources) {
    for (std::string* text : {&resource.uri, &resource.name, &resource.title, &resource.description}) {
      *text = redacted(std::move(*text));
    }
  }
  return page;
}

McpCallResult McpClient::read_resource(const std::string& uri, std::chrono::milliseconds timeout) {
  Expected<JsonRpcMessage> answer =
      request("resources/read", Json::object().set("uri", uri), SteadyClock::now() + timeout);
  if (!answer) return redacted(failed_call(answer.error().message));
  if (answer->kind == MessageKind::error) {
    return redacted(failed_call("the MCP server answered resources/read with " + describe_error(*answer)));
  }
  return redacted(read_resource_contents(answer->result, m_settings.results));
}

Expected<void> McpClient::ping(std::chrono::milliseconds timeout) {
  Expected<JsonRpcMessage> answer = request("ping", Json(), SteadyClock::now() + timeout);
  if (!answer) return answer.error();
  if (answer->kind == MessageKind::error)
    return failure("the MCP server answered ping with " + describe_error(*answer));
  return {};
}

/// Sends a request and waits for its answer until `deadline`; `progress_updates`, when given,
/// asks for progress notifications and counts them. When the server ended the session (streamable
/// HTTP's 404), the client initializes a new one, as the protocol asks, and sends the request once
/// more.
Expected<JsonRpcMessage> McpClient::request(const std::string& method, Json params, TimePoint deadline,
                                            int* progress_updates) {
  const std::uint64_t session = session_count();
  Expected<JsonRpcMessage> answer = request_once(method, params, deadline, progress_updates);
  if (answer || method == "initialize" || !m_transport->session_lost()) return answer;
  if (Expected<void> renewed = renew_session(session, deadline); !renewed) {
    return failure(answer.error().message + "; a new session failed: " + renewed.error().message);
  }
  Expected<JsonRpcMessage> again = request_once(method, std::move(params), deadline, progress_updates);
  if (!again) return failure(again.error().message + ", in a new session too");
  return again;
}

std::uint64_t McpClient::session_count() const {
  std::lock_guard lock(m_mutex);
  return m_sessions;
}

/// Initializes a new session unless another request did since the session `seen` ended.
Expected<void> McpClient::renew_session(std::uint64_t seen, TimePoint deadline) {
  std::lock_guard renewing(m_renew_mutex);
  if (session_count() != seen) return {};
  AR_TRY(initialize(deadline));
  std::lock_guard lock(m_mutex);
  ++m_sessions;
  return {};
}

Expected<JsonRpcMessage> McpClient::request_once(const std::string& method, Json params, TimePoint deadline,
                                                 int* progress_updates) {
  const auto started = SteadyClock::now();
  std::int64_t id = 0;
  {
    std::lock_guard lock(m_mutex);
    if (m_closed_because) return failure("the MCP server is gone: " + *m_closed_because);
    id = m_next_id++;
    m_pending[id];
    if (progress_updates) m_progress[std::to_string(id)] = 0;
  }
  if (progress_updates) {
    if (!params.is_object()) params = Json::object();
    params.set("_meta", Json::object().set("progressToken", id));
  }
  Expected<void> sent = m_transport->send(request_message(id, method, std::move(params)), deadline);
  const bool lost = !sent && m_transport->session_lost();
  std::unique_lock lock(m_mutex);
  if (sent) {
    m_changed.wait_until(lock, deadline, [&] { return m_pending[id].has_value() || m_closed_because; });
  } else if (!lost) {  // a server that stopped reading has usually died: its reason says more than the failed write
    auto patience = std::min(deadline, SteadyClock::now() + k_reason_patience);
    m_changed.wait_until(lock, patience, [&] { return m_closed_because.has_value(); });
  }
  std::optional<JsonRpcMessage> answer = std::move(m_pending[id]);
  m_pending.erase(id);
  if (progress_updates) {
    *progress_updates = m_progress[std::to_string(id)];
    m_progress.erase(std::to_string(id));
  }
  if (answer) return std::move(*answer);
  if (m_closed_because) return failure("the MCP server is gone: " + *m_closed_because);
  lock.unlock();
  if (!sent && SteadyClock::now() < deadline)
    return failure("sending " + method + " to the MCP server failed: " + sent.error().message);
  cancel_request(id, "timed out");
  return failure("the MCP server did not answer " + method + " within " + seconds_text(deadline - started));
}

void McpClient::cancel_request(std::int64_t id, const std::string& reason) {
  Json params = Json::object().set("requestId", id).set("reason", reason);
  (void)m_transport->send(notification_message("notifications/cancelled", std::move(params)),
                          SteadyClock::now() + k_cancel_patience);
}

std::uint64_t McpClient::tools_generation() const {
  std::lock_guard lock(m_mutex);
  return m_tools_generation;
}

std::optional<std::string> McpClient::closed_because() const {
  std::lock_guard lock(m_mutex);
  return m_closed_because;
}

McpServerLog McpClient::log() const {
  McpServerLog log;
  {
    std::lock_guard lock(m_mutex);
    log.messages = m_log;
    log.message_count = m_log_count;
    log.elicitations = m_elicitations;
  }
  log.transport = m_transport->facts();
  log.transport.stderr_tail = redacted(std::move(log.transport.stderr_tail));
  return log;
}

void McpClient::close() {
  {
    std::lock_guard lock(m_mutex);
    if (m_close_started) return;
    m_close_started = true;
  }
  m_transport->close(m_settings.close_grace);
  std::lock_guard lock(m_mutex);
  if (!m_closed_because) m_closed_because = "agent-run closed the connection";
  m_changed.notify_all();
}

std::string McpClient::redacted(std::string text) const { return redact_values(std::move(text), m_settings.secrets); }

McpCallResult McpClient::redacted(McpCallResult result) const {
  result.error = redacted(std::move(result.error));
  for (McpContent& block : result.content) {
    block.text = redacted(std::move(block.text));
    block.uri = redacted(std::move(block.uri));
  }
  if (result.structured) {
    std::string text = result.structured->dump();
    std::string clean = redacted(text);
    if (clean != text) result.structured = Json(clean);
  }
  return result;
}

void McpClient::on_message(const Json& value) {
  Expected<JsonRpcMessage> message = read_message(value);
  if (!message) return;  // not for us to act on; a transport stops only for what is not JSON-RPC at all
  switch (message->kind) {
    case MessageKind::result:
    case MessageKind::error: {
      if (!message->id.is_integer()) return;
      std::lock_guard lock(m_mutex);
      auto waiting = m_pending.find(message->id.as_int());
      if (waiting == m_pending.end() || waiting->second) return;  // late (timed out) or repeated
      waiting->second = std::move(*message);
      m_changed.notify_all();
      return;
    }
    case MessageKind::request: answer_request(*message); return;
    case MessageKind::notification: take_notification(*message); return;
  }
}

void McpClient::on_closed(const std::string& why) {
  std::lock_guard lock(m_mutex);
  if (!m_closed_because) m_closed_because = redacted(why);
  m_changed.notify_all();
}

void McpClient::answer_request(const JsonRpcMessage& request) {
  std::optional<ElicitationRecord> elicitation;
  Json answer = answer_server_request(request, m_settings.offer, elicitation);
  if (elicitation) {
    elicitation->message = redacted(std::move(elicitation->message));
    std::lock_guard lock(m_mutex);
    m_elicitations.push_back(std::move(*elicitation));
  }
  (void)m_transport->send(answer, SteadyClock::now() + k_answer_patience);
}

void McpClient::take_notification(const JsonRpcMessage& notification) {
  if (notification.method == "notifications/tools/list_changed") {
    std::lock_guard lock(m_mutex);
    ++m_tools_generation;
  } else if (notification.method == "notifications/message") {
    keep_log_message(notification.params);
  } else if (notification.method == "notifications/progress") {
    const Json* token = notification.params.find("progressToken");
    if (!token) return;
    std::string key = token->is_string() ? token->as_string() : token->dump();
    std::lock_guard lock(m_mutex);
    if (auto counted = m_progress.find(key); counted != m_progress.end()) ++counted->second;
  }
}

void McpClient::keep_log_message(const Json& params) {
  McpLogEntry entry;
  entry.level = params.get_string("level");
  entry.logger = params.get_string("logger");
  const Json* data = params.find("data");
  std::string text = !data ? "" : data->is_string() ? data->as_string() : data->dump();
  entry.text = redacted(cap_head_tail(text, k_log_text_bytes, 0));
  std::lock_guard lock(m_mutex);
  ++m_log_count;
  m_log.push_back(std::move(entry));
  if (m_log.size() > k_kept_log_messages) m_log.erase(m_log.begin());
}

}  // namespace agent_run
