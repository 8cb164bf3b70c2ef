#include "batch/attempt_mcp.h"

#include "exec/attempt_sandbox.h"
#include "mcp/server_launch.h"
#include "policy/tool_names.h"
#include "tools/mcp_resource_tools.h"
#include "tools/mcp_tool.h"

#include <algorithm>
#include <future>
#include <set>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

/// What a stdio server of this attempt starts with.
McpLaunchContext launch_context(const ToolScope& scope, const SessionState& session, const AttemptSettings& settings) {
  McpLaunchContext context;
  for (const std::string& entry : scope.environment) {
    std::string name = entry.substr(0, entry.find('='));
    if (std::find(scope.secrets.begin(), scope.secrets.end(), name) == scope.secrets.end()) {
      context.environment.push_back(entry);
    }
  }
  std::string marker = session.processes.marker();
  std::string marker_name = marker.substr(0, marker.find('=') + 1);
  std::erase_if(context.environment, [&](const std::string& entry) { return entry.starts_with(marker_name); });
  context.environment.push_back(marker);
  context.variables = settings.variables;
  context.workspace = scope.workspace;
  if (scope.sandbox) {  // the attempt's holder: it outlives the servers (finish() runs before it stops)
    const AttemptSandbox* sandbox = scope.sandbox;
    context.sandbox = [sandbox](ProcessSpec spec) { return sandbox->wrap(std::move(spec)); };
    context.sandbox_has_network = sandbox->layout().spec.network == SandboxNetwork::on;
  }
  context.cancellation = scope.cancellation;
  context.elicitation = elicitation_by_answers(scope.answers);
  return context;
}

/// A server started and its tools listed, or why not, and how long that took.
struct Started {
  std::unique_ptr<McpClient> client;
  std::vector<McpToolInfo> tools;
  std::uint64_t listed_at = 0;
  std::string error;
  long long startup_ms = 0;
};

Started start_server(const McpServerSpec& spec, const McpLaunchContext& context) {
  const auto began = SteadyClock::now();
  Started started;
  auto client = connect_server(spec, context);
  if (client) {
    auto tools = (*client)->list_tools(&started.listed_at);
    if (tools) {
      started.client = std::move(*client);
      started.tools = std::move(*tools);
    } else {
      started.error = "MCP server '" + spec.name + "': " + tools.error().message;
      (*client)->close();
    }
  } else {
    started.error = client.error().message;
  }
  started.startup_ms = std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - began).count();
  return started;
}

McpServerRecord first_record(const McpServerSpec& spec, const ToolScope& scope) {
  McpServerRecord record;
  record.name = spec.name;
  record.transport = spec.is_stdio() ? "stdio" : "http";
  record.required = spec.required;
  record.sandboxed = spec.is_stdio() && scope.sandbox && spec.sandbox == McpSandbox::inherit;
  return record;
}

/// True when the task's `tools:` names MCP tools and none of its patterns names this one.
bool left_out_by_tools_key(const std::optional<std::vector<std::string>>& listed, const std::string& name) {
  if (!listed) return false;
  bool names_mcp =
      std::any_of(listed->begin(), listed->end(), [](const std::string& t) { return t.starts_with("mcp__"); });
  if (!names_mcp) return false;
  return std::none_of(listed->begin(), listed->end(),
                      [&](const std::string& t) { return tool_pattern_matches(t, name); });
}

}  // namespace

AttemptMcpServers::AttemptMcpServers(const Task& task, const ToolScope& scope, const SessionState& session,
                                     const AttemptSettings& settings, ToolRegistry& tools)
    : m_registry(tools), m_listed(task.tools) {
  if (task.mcp_servers.empty()) return;
  const McpLaunchContext context = launch_context(scope, session, settings);
  std::vector<std::future<Started>> starting;
  for (const McpServerSpec& spec : task.mcp_servers) {
    starting.push_back(std::async(std::launch::async, [&spec, &context] { return start_server(spec, context); }));
  }
  for (std::size_t i = 0; i < starting.size(); ++i) {
    Started started = starting[i].get();
    Server server{task.mcp_servers[i], std::move(started.client), first_record(task.mcp_servers[i], scope), {}};
    server.record.startup_ms = started.startup_ms;
    server.record.status = server.client ? "connected" : "failed";
    server.record.error = started.error;
    server.tools = std::move(started.tools);
    server.listed_at = started.listed_at;
    if (server.client) {
      offer_tools(server);
    } else {
      tools.mark_unavailable(mcp_tool_name(server.spec.name, ""), server.record.error);
    }
    m_servers.push_back(std::move(server));
  }
}

AttemptMcpServers::~AttemptMcpServers() {
  for (Server& server : m_servers) {
    if (server.client) server.client->close();
  }
}

void AttemptMcpServers::offer_tools(Server& server) {
  const McpServerInfo& info = server.client->server();
  server.record.server_name = info.name;
  server.record.server_version = info.version;
  server.record.protocol_version = info.protocol_version;
  const bool resources = server.client->offers_resources();
  const auto reader = resources ? McpTool::ResourceReader::offered : McpTool::ResourceReader::none;
  std::set<std::string> seen;
  for (const McpToolInfo& tool : server.tools) {
    std::string name = mcp_tool_name(server.spec.name, tool.name);
    std::optional<std::string> problem =
        tool.problem.empty() ? mcp_tool_name_problem(server.spec.name, tool.name) : std::optional(tool.problem);
    if (!problem && !seen.insert(tool.name).second) problem = "the server lists it twice";
    if (!problem && left_out_by_tools_key(m_listed, name)) problem = "the task's tools: does not name it";
    if (problem) {
      server.record.skipped_tools.push_back(tool.name + ": " + *problem);
      continue;
    }
    m_registry.add(std::make_unique<McpTool>(server.spec.name, tool, *server.client, reader));
    server.record.tools.push_back(name);
  }
  if (resources) offer_resource_tools(server);
}

/// The server's resources as two tools of its own; a tool of the server with the same name keeps it.
void AttemptMcpServers::offer_resource_tools(Server& server) {
  auto taken = [&](const std::string& part) {
    return std::any_of(server.tools.begin(), server.tools.end(), [&](const McpToolInfo& tool) { return tool.name == part; });
  };
  for (std::unique_ptr<Tool>& tool : mcp_resource_tools(server.spec.name, *server.client)) {
    const std::string name = tool->schema().name;
    const std::string part = name.substr(name.rfind("__") + 2);
    std::optional<std::string> problem = mcp_tool_name_problem(server.spec.name, part);
    if (!problem && taken(part)) problem = "the server has a tool of that name, which is offered instead";
    if (!problem && left_out_by_tools_key(m_listed, name)) problem = "the task's tools: does not name it";
    if (problem) {
      server.record.skipped_tools.push_back(part + " (agent-run's, for the server's resources): " + *problem);
      continue;
    }
    m_registry.add(std::move(tool));
    server.record.tools.push_back(name);
  }
}

std::vector<std::string> AttemptMcpServers::unavailable() const {
  std::vector<std::string> lines;
  for (const Server& server : m_servers) {
    if (!server.client) lines.push_back(server.record.error + "; its tools (mcp__" + server.spec.name + "__*) are not offered");
  }
  return lines;
}

std::vector<std::string> AttemptMcpServers::skipped_tools() const {
  std::vector<std::string> lines;
  for (const Server& server : m_servers) {
    for (const McpToolInfo& tool : server.tools) {
      if (tool.problem.empty() && !mcp_tool_name_problem(server.spec.name, tool.name)) continue;
      std::string why = tool.problem.empty() ? *mcp_tool_name_problem(server.spec.name, tool.name) : tool.problem;
      lines.push_back("MCP server '" + server.spec.name + "': its tool '" + tool.name + "' is not offered: " + why);
    }
  }
  return lines;
}

std::vector<ToolsChange> AttemptMcpServers::update() {
  std::vector<ToolsChange> changes;
  for (Server& server : m_servers) {
    if (!server.client || server.client->closed_because()) continue;
    const std::uint64_t now = server.client->tools_generation();
    if (now == server.listed_at) continue;
    ToolsChange change{"MCP server '" + server.spec.name + "'", {}, {}, ""};
    auto listed = server.client->list_tools(&server.listed_at);
    if (!listed) {
      server.listed_at = now;  // not asked again until the server announces another change
      change.error = listed.error().message;
      changes.push_back(std::move(change));
      continue;
    }
    const std::vector<std::string> before = server.record.tools;
    for (const std::string& name : before) m_registry.remove(name);
    server.record.tools.clear();
    server.record.skipped_tools.clear();
    server.tools = std::move(*listed);
    offer_tools(server);
    const std::vector<std::string>& after = server.record.tools;
    for (const std::string& name : after) {
      if (std::find(before.begin(), before.end(), name) == before.end()) change.added.push_back(name);
    }
    for (const std::string& name : before) {
      if (std::find(after.begin(), after.end(), name) == after.end()) change.removed.push_back(name);
    }
    changes.push_back(std::move(change));
  }
  return changes;
}

std::optional<std::string> AttemptMcpServers::required_failure() const {
  for (const Server& server : m_servers) {
    if (server.spec.required && !server.client) {
      return "the required " + server.record.error + " (" + server.spec.origin + ")";
    }
  }
  return std::nullopt;
}

void AttemptMcpServers::finish(AttemptResult& result) {
  if (m_finished) return;
  m_finished = true;
  for (Server& server : m_servers) {
    if (server.client) {
      // A server gone before agent-run closed it ended mid-attempt: stopped when it exited with 0
      // by itself, else crashed (a signal, another code, a lost connection, garbage on its stdout).
      if (std::optional<std::string> gone = server.client->closed_because()) {
        const bool clean = server.client->transport().facts().ending == "exited with code 0";
        server.record.status = clean ? "stopped" : "crashed";
        server.record.error = "MCP server '" + server.spec.name + "' ended during the attempt: " + *gone;
        result.warnings.push_back(server.record.error + "; its tools (mcp__" + server.spec.name +
                                  "__*) failed from then on");
      }
      server.client->close();
      McpServerLog log = server.client->log();
      for (const McpLogEntry& entry : log.messages)
        server.record.log.push_back({entry.level, entry.logger, entry.text});
      server.record.log_count = log.message_count;
      for (const ElicitationRecord& asked : log.elicitations) {
        server.record.elicitations.push_back({asked.message, to_string(asked.action), asked.answered_by, asked.reason});
      }
      server.record.stderr_tail = log.transport.stderr_tail;
      server.record.stderr_bytes = log.transport.stderr_bytes;
      server.record.ending = log.transport.ending;
    }
    result.mcp_servers.push_back(server.record);
  }
}

}  // namespace agent_run
