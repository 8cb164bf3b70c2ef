#include "mcp/server_launch.h"

#include "exec/child_process.h"
#include "mcp/http_transport.h"
#include "mcp/package_runners.h"

#include <algorithm>

namespace agent_run {

namespace {

bool is_variable_character(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/// `entries` with `NAME=value` in place of any earlier NAME.
void set_entry(std::vector<std::string>& entries, const std::string& name, const std::string& value) {
  std::string prefix = name + "=";
  std::erase_if(entries, [&](const std::string& entry) { return entry.starts_with(prefix); });
  entries.push_back(prefix + value);
}

Expected<std::unique_ptr<McpTransport>> stdio_transport(const McpServerSpec& spec, const McpLaunchContext& context,
                                                        std::vector<std::string>& secrets) {
  StdioCommand command;
  command.argv = spec.command;
  command.environment = context.environment;
  for (const auto& [name, value] : spec.env) {
    auto expanded = expand_variables(value, context.variables, secrets);
    if (!expanded) return make_error("env." + name + ": " + expanded.error().message);
    set_entry(command.environment, name, *expanded);
  }
  command.cwd = context.workspace;
  if (spec.cwd) command.cwd = spec.cwd->is_absolute() ? *spec.cwd : context.workspace / *spec.cwd;
  LaunchWrapper wrap = spec.sandbox == McpSandbox::inherit ? context.sandbox : LaunchWrapper();
  if (wrap && !context.sandbox_has_network) {
    auto fetched = package_fetched_at_start(command.argv, command.cwd);
    if (fetched) return make_error(offline_package_advice(*fetched));
  }
  return std::unique_ptr<McpTransport>(
      std::make_unique<StdioTransport>(std::move(command), wrap, context.cancellation));
}

Expected<std::unique_ptr<McpTransport>> http_transport(const McpServerSpec& spec, const McpLaunchContext& context,
                                                       std::vector<std::string>& secrets) {
  HttpEndpoint endpoint{spec.url, {}};
  for (const auto& [name, value] : spec.headers) {
    auto expanded = expand_variables(value, context.variables, secrets);
    if (!expanded) return make_error("headers." + name + ": " + expanded.error().message);
    endpoint.headers.push_back({name, *expanded});
  }
  return std::unique_ptr<McpTransport>(std::make_unique<HttpTransport>(std::move(endpoint), context.cancellation));
}

}  // namespace

Expected<std::string> expand_variables(std::string_view text, const std::vector<std::string>& variables,
                                       std::vector<std::string>& secrets) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t start = text.find("${", at);
    if (start == std::string_view::npos) break;
    std::size_t end = text.find('}', start + 2);
    std::string_view name =
        end == std::string_view::npos ? text.substr(start + 2) : text.substr(start + 2, end - start - 2);
    bool well_formed =
        end != std::string_view::npos && !name.empty() && std::all_of(name.begin(), name.end(), is_variable_character);
    if (!well_formed) return make_error("'${" + std::string(name) + "' is not a ${NAME} reference");
    std::optional<std::string> value = environment_value(variables, name);
    if (!value) return make_error("${" + std::string(name) + "} is not set in agent-run's environment");
    out.append(text.substr(at, start - at));
    out += *value;
    if (!value->empty()) secrets.push_back(*value);
    at = end + 1;
  }
  out.append(text.substr(at));
  return out;
}

Expected<std::unique_ptr<McpClient>> connect_server(const McpServerSpec& spec, const McpLaunchContext& context) {
  McpClientSettings settings;
  if (context.offer_roots) settings.offer.root = context.workspace;
  settings.offer.elicitation = context.elicitation;
  settings.startup_timeout = spec.startup_timeout.value_or(context.startup_timeout);
  auto transport = spec.is_stdio() ? stdio_transport(spec, context, settings.secrets)
                                   : http_transport(spec, context, settings.secrets);
  if (!transport) return make_error("MCP server '" + spec.name + "': " + transport.error().message);
  auto client = McpClient::connect(std::move(*transport), std::move(settings));
  if (!client) return make_error("MCP server '" + spec.name + "': " + client.error().message);
  return client;
}

}  // namespace agent_run
