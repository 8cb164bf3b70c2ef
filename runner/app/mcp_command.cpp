#include "app/mcp_command.h"

#include "app/run_configuration.h"
#include "app/signal_scope.h"
#include "base/cancellation.h"
#include "base/files.h"
#include "base/text.h"
#include "base/yaml_document.h"
#include "exec/child_process.h"
#include "mcp/server_launch.h"
#include "task/task_loader.h"

#include <filesystem>
#include <ostream>

namespace agent_run {

namespace {

constexpr std::chrono::milliseconds k_call_timeout{std::chrono::minutes(2)};

/// What one `agent-run mcp` invocation asks for.
struct McpInvocation {
  std::string action;  // list | call
  McpServerSpec server;
  std::string tool;
  Json arguments = Json::object();
};

bool is_url(const std::string& text) { return text.rfind("http://", 0) == 0 || text.rfind("https://", 0) == 0; }

/// The `mcp_servers:` of a file and its name for messages.
struct NamedServers {
  std::string file;
  std::vector<McpServerSpec> servers;
};

/// The servers of --config FILE (a task file, which has a `prompt:`, or an agent-run.yaml), else of the
/// agent-run.yaml a run in this folder would read.
Expected<NamedServers> servers_of(const CliOptions& options) {
  if (options.config) {
    auto text = read_file(*options.config);
    if (!text) return make_error("mcp: " + text.error().message);
    YamlDocument document = parse_yaml(*text);
    if (document.root && document.root->find("prompt")) {
      auto task = load_task_file(*options.config);
      if (!task) return task.error();
      return NamedServers{*options.config, task->mcp_servers};
    }
  }
  auto configuration = configuration_for(options);
  if (!configuration) return configuration.error();
  if (configuration->source.empty()) {
    return make_error("mcp: no --config FILE and no agent-run.yaml here to name MCP servers (give a URL, a task or "
                      "agent-run.yaml with --config, or -- COMMAND...)");
  }
  return NamedServers{configuration->source.string(), configuration->defaults.mcp_servers};
}

Expected<McpServerSpec> server_named(const std::string& server, const CliOptions& options) {
  McpServerSpec spec;
  spec.name = "server";
  if (is_url(server)) {
    spec.url = server;
    return spec;
  }
  auto servers = servers_of(options);
  if (!servers) return servers.error();
  for (const McpServerSpec& entry : servers->servers) {
    if (entry.name == server) return entry;
  }
  std::vector<std::string> names;
  for (const McpServerSpec& entry : servers->servers) names.push_back(entry.name);
  auto suggestion = closest_match(server, names);
  return make_error("mcp: " + servers->file + " has no MCP server '" + server + "'" +
                    (suggestion      ? " (did you mean '" + *suggestion + "'?)"
                     : names.empty() ? " (it has no mcp_servers:)"
                                     : " (it has " + join(names, ", ") + ")"));
}

Expected<McpInvocation> read_invocation(const CliOptions& options) {
  const std::vector<std::string>& words = options.files;
  if (words.empty() || (words[0] != "list" && words[0] != "call")) {
    return make_error(
        "mcp needs a subcommand: list or call (agent-run mcp list SERVER, agent-run mcp call SERVER TOOL [JSON])");
  }
  McpInvocation invocation;
  invocation.action = words[0];
  std::size_t next = 1;
  if (!options.server_command.empty()) {
    invocation.server.name = "server";
    invocation.server.command = options.server_command;
  } else {
    if (words.size() < 2)
      return make_error("mcp " + invocation.action +
                        " needs a server: a URL, a name with --config FILE, or -- COMMAND...");
    auto server = server_named(words[1], options);
    if (!server) return server.error();
    invocation.server = std::move(*server);
    next = 2;
  }
  std::size_t wanted = invocation.action == "list" ? 0 : 1;
  if (invocation.action == "call" && words.size() <= next)
    return make_error("mcp call needs the name of a tool to call");
  if (words.size() > next + wanted + (invocation.action == "call" ? 1 : 0)) {
    return make_error("mcp " + invocation.action + ": unexpected '" + words.back() + "'");
  }
  if (invocation.action == "call") {
    invocation.tool = words[next];
    if (words.size() > next + 1) {
      auto arguments = parse_json(words[next + 1]);
      if (!arguments || !arguments->is_object()) {
        return make_error("mcp call: the arguments must be a JSON object, got '" + words[next + 1] + "'");
      }
      invocation.arguments = std::move(*arguments);
    }
  }
  return invocation;
}

McpLaunchContext launch_context(const CliOptions& options, const ProgramContext& program,
                                const Cancellation& cancellation) {
  McpLaunchContext context;
  context.environment = program.environment;
  context.variables = program.variables;
  std::error_code ec;
  context.workspace = std::filesystem::weakly_canonical(options.workspace.value_or("."), ec);
  context.cancellation = &cancellation;
  context.elicitation = answer_with_defaults;
  // One list or call needs no roots, and a server offered them may linger after its stdin closes
  // (server-everything does), so the command would wait out the whole stop grace.
  context.offer_roots = false;
  return context;
}

Json tool_json(const McpToolInfo& tool) {
  Json entry = Json::object().set("name", tool.name);
  if (!tool.title.empty()) entry.set("title", tool.title);
  if (!tool.description.empty()) entry.set("description", tool.description);
  entry.set("inputSchema", tool.input_schema);
  if (!tool.output_schema.is_null()) entry.set("outputSchema", tool.output_schema);
  if (!tool.annotations.is_null()) entry.set("annotations", tool.annotations);
  if (!tool.problem.empty()) entry.set("problem", tool.problem);
  return entry;
}

Json server_json(const McpServerInfo& server) {
  return Json::object()
      .set("name", server.name)
      .set("version", server.version)
      .set("protocolVersion", server.protocol_version);
}

void print_tool(const McpToolInfo& tool, std::ostream& out) {
  out << "\n" << tool.name << (tool.title.empty() ? "" : " (" + tool.title + ")") << "\n";
  if (!tool.problem.empty()) out << "  not offered to a model: " << tool.problem << "\n";
  if (!tool.description.empty()) out << "  " << tool.description << "\n";
  if (!tool.annotations.is_null()) out << "  annotations: " << tool.annotations.dump() << "\n";
  out << "  input schema: " << tool.input_schema.dump() << "\n";
  if (!tool.output_schema.is_null()) out << "  output schema: " << tool.output_schema.dump() << "\n";
}

int list_tools(McpClient& client, const CliOptions& options, std::ostream& out, std::ostream& err) {
  auto tools = client.list_tools();
  if (!tools) {
    err << "agent-run: " << tools.error().message << "\n";
    return static_cast<int>(ExitCode::not_judged);
  }
  if (options.json) {
    Json list = Json::array();
    for (const McpToolInfo& tool : *tools) list.push(tool_json(tool));
    out << Json::object().set("server", server_json(client.server())).set("tools", std::move(list)).dump() << "\n";
    return 0;
  }
  const McpServerInfo& server = client.server();
  out << server.name << " " << server.version << " (MCP " << server.protocol_version << "): " << tools->size()
      << " tools; in a task, tool T of server NAME is mcp__NAME__T\n";
  for (const McpToolInfo& tool : *tools) print_tool(tool, out);
  return 0;
}

Json call_json(const McpCallResult& result) {
  Json content = Json::array();
  for (const McpContent& block : result.content) {
    static const char* k_kinds[] = {"text", "image", "audio", "resource", "resource_link"};
    Json entry = Json::object().set("type", k_kinds[static_cast<int>(block.kind)]);
    if (!block.text.empty()) entry.set("text", block.text);
    if (!block.mime_type.empty()) entry.set("mimeType", block.mime_type);
    if (!block.uri.empty()) entry.set("uri", block.uri);
    if (!block.name.empty()) entry.set("name", block.name);
    if (block.data_bytes > 0) entry.set("bytes", block.data_bytes);
    content.push(std::move(entry));
  }
  Json json = Json::object().set("isError", result.is_error).set("content", std::move(content));
  if (result.structured) json.set("structuredContent", *result.structured);
  if (!result.error.empty()) json.set("error", result.error);
  if (result.progress_updates > 0) json.set("progress", result.progress_updates);
  return json;
}

int call_tool(McpClient& client, const McpInvocation& invocation, const CliOptions& options, std::ostream& out) {
  McpCallResult result = client.call_tool(invocation.tool, invocation.arguments, k_call_timeout);
  out << (options.json ? call_json(result).dump() : call_result_text(result)) << "\n";
  return result.is_error ? static_cast<int>(ExitCode::some_failed) : 0;
}

}  // namespace

ElicitationAnswer answer_with_defaults(const ElicitationRequest& request) {
  if (auto defaults = form_defaults(request.requested_schema)) {
    return ElicitationAnswer{ElicitationAction::accept, std::move(*defaults), "defaults", ""};
  }
  return ElicitationAnswer{ElicitationAction::decline, nullptr, "defaults",
                           "no human in the loop, and the form has a required field without a default"};
}

int mcp_command(const CliOptions& options, const ProgramContext& context) {
  auto scenario = environment_value(context.environment, "MCP_CONFORMANCE_SCENARIO");
  if (scenario && options.files.size() == 1 && is_url(options.files[0])) {
    return mcp_conformance_client(options.files[0], *scenario, context);
  }
  auto invocation = read_invocation(options);
  if (!invocation) {
    context.err << "agent-run: " << invocation.error().message << "\n";
    return static_cast<int>(ExitCode::invalid);
  }
  Cancellation cancellation;
  SignalScope signals(cancellation);
  auto client = connect_server(invocation->server, launch_context(options, context, cancellation));
  if (!client) {
    context.err << "agent-run: " << client.error().message << "\n";
    return cancellation.cancelled() ? exit_code_for_signal(cancellation.signal())
                                    : static_cast<int>(ExitCode::not_judged);
  }
  int code = invocation->action == "list" ? list_tools(**client, options, context.out, context.err)
                                          : call_tool(**client, *invocation, options, context.out);
  (*client)->close();
  return cancellation.cancelled() ? exit_code_for_signal(cancellation.signal()) : code;
}

}  // namespace agent_run
