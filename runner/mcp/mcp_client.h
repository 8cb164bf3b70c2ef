#pragma once

#include "base/expected.h"
#include "base/json.h"
#include "mcp/call_result.h"
#include "mcp/elicitation.h"
#include "mcp/json_rpc_message.h"
#include "mcp/resource_list.h"
#include "mcp/server_requests.h"
#include "mcp/tool_list.h"
#include "mcp/transport.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The protocol versions the client speaks, newest first: it asks for the first and accepts any
/// of them in the server's answer.
inline const std::vector<std::string> k_mcp_protocol_versions = {"2025-11-25", "2025-06-18", "2025-03-26"};

/// What the server said about itself at initialize.
struct McpServerInfo {
  std::string name;
  std::string title;
  std::string version;
  std::string protocol_version;  // the one agreed
  std::string instructions;
  Json capabilities = Json::object();
};

/// A logging message from the server (notifications/message).
struct McpLogEntry {
  std::string level;
  std::string logger;
  std::string text;  // `data` as text (JSON for anything but a string), capped
};

/// What the report keeps about a server's side of the conversation.
struct McpServerLog {
  std::vector<McpLogEntry> messages;  // the last few logging messages
  std::size_t message_count = 0;      // all of them
  std::vector<ElicitationRecord> elicitations;
  TransportFacts transport;  // stderr tail and how the process ended (stdio)
};

/// How the client behaves towards one server.
struct McpClientSettings {
  std::string client_name = "agent-run";
  std::string client_version = AGENT_RUN_VERSION;
  ClientOffer offer;                                 // roots and elicitation answers
  std::chrono::milliseconds startup_timeout{30000};  // for initialize, and for each tools/list page
  std::chrono::milliseconds close_grace{2000};       // for the server to end by itself at close()
  CallResultLimits results;
  ToolListLimits tool_list;
  std::vector<std::string> secrets;  // values (from ${VAR}) redacted from everything the client hands out
};

/// A conversation with one MCP server over a transport: initialize (with version negotiation),
/// tools/list (every page, again after notifications/tools/list_changed), tools/call with a
/// timeout and capped results, resources/list and resources/read, ping, a new session when the
/// server ends one (HTTP's 404), and answers to what the server asks (roots, elicitation;
/// sampling refused). A server that dies, talks garbage or goes silent fails the calls waiting
/// on it, with the reason; nothing here waits without a deadline. Thread-safe.
class McpClient final : private TransportListener {
 public:
  /// Opens the transport and initializes; fails with what went wrong (the server would not
  /// start, crashed, answered garbage, or nothing within the startup timeout).
  static Expected<std::unique_ptr<McpClient>> connect(std::unique_ptr<McpTransport> transport,
                                                      McpClientSettings settings);
  ~McpClient() override;
  McpClient(const McpClient&) = delete;
  McpClient& operator=(const McpClient&) = delete;

  const McpServerInfo& server() const { return m_server; }
  /// Every tool the server offers now; an error for a broken or enormous list. `listed_at`, when
  /// given, gets the tools_generation() the list is current for: a later announcement makes
  /// tools_generation() differ from it.
  Expected<std::vector<McpToolInfo>> list_tools(std::uint64_t* listed_at = nullptr);
  /// Calls a tool; whatever goes wrong comes back as a failed result, never as an exception.
  McpCallResult call_tool(const std::string& name, const Json& arguments, std::chrono::milliseconds timeout);
  /// True when the server said at initialize that it offers resources.
  bool offers_resources() const;
  /// One page of resources/list (or resources/templates/list), from `cursor` when given.
  Expected<ResourcePage> list_resources(ResourceListKind kind, const std::optional<std::string>& cursor,
                                        std::chrono::milliseconds timeout);
  /// Reads one resource (resources/read); whatever goes wrong comes back as a failed result.
  McpCallResult read_resource(const std::string& uri, std::chrono::milliseconds timeout);
  Expected<void> ping(std::chrono::milliseconds timeout);
  /// Counts notifications/tools/list_changed: a different number means the tools changed.
  std::uint64_t tools_generation() const;
  /// Why the server is gone, when it is.
  std::optional<std::string> closed_because() const;
  McpServerLog log() const;
  McpTransport& transport() { return *m_transport; }
  /// Ends the conversation (the transport's close with the grace); safe to call more than once.
  void close();

 private:
  using TimePoint = std::chrono::steady_clock::time_point;

  McpClient(std::unique_ptr<McpTransport> transport, McpClientSettings settings);
  Expected<void> initialize(TimePoint deadline);
  Expected<JsonRpcMessage> initialize_with(const std::string& version, TimePoint deadline);
  Expected<McpServerInfo> accept_server(const JsonRpcMessage& answer) const;
  Expected<std::vector<McpToolInfo>> list_every_page();
  Expected<JsonRpcMessage> request(const std::string& method, Json params, TimePoint deadline,
                                   int* progress_updates = nullptr);
  Expected<JsonRpcMessage> request_once(const std::string& method, Json params, TimePoint deadline,
                                        int* progress_updates);
  std::uint64_t session_count() const;
  Expected<void> renew_session(std::uint64_t seen, TimePoint deadline);
  void cancel_request(std::int64_t id, const std::string& reason);
  std::string redacted(std::string text) const;
  McpCallResult redacted(McpCallResult result) const;
  Error failure(const std::string& text) const { return make_error(redacted(text)); }

  void on_message(const Json& message) override;
  void on_closed(const std::string& why) override;
  void answer_request(const JsonRpcMessage& request);
  void take_notification(const JsonRpcMessage& notification);
  void keep_log_message(const Json& params);

  std::unique_ptr<McpTransport> m_transport;
  McpClientSettings m_settings;
  McpServerInfo m_server;

  std::mutex m_renew_mutex;           // one new session at a time
  mutable std::mutex m_mutex;         // guards everything below it
  std::condition_variable m_changed;  // a response arrived or the server went away
  std::int64_t m_next_id = 1;
  std::map<std::int64_t, std::optional<JsonRpcMessage>> m_pending;  // requests waiting for an answer
  std::map<std::string, int> m_progress;                            // progress token (as text) -> updates
  std::optional<std::string> m_closed_because;
  bool m_close_started = false;
  std::uint64_t m_tools_generation = 0;
  std::uint64_t m_sessions = 0;  // new sessions after the server ended one
  std::vector<McpLogEntry> m_log;
  std::size_t m_log_count = 0;
  std::vector<ElicitationRecord> m_elicitations;
};

}  // namespace agent_run
