#include "task/mcp_server_reading.h"

#include "policy/tool_names.h"

#include <algorithm>
#include <cctype>

namespace agent_run {

namespace {

const std::vector<std::string> k_stdio_keys = {"command", "args", "env", "cwd", "sandbox"};
const std::vector<std::string> k_http_keys = {"url", "headers"};
const std::vector<std::string> k_common_keys = {"required", "startup_timeout"};

std::vector<std::string> known_keys() {
  std::vector<std::string> keys = k_stdio_keys;
  keys.insert(keys.end(), k_http_keys.begin(), k_http_keys.end());
  keys.insert(keys.end(), k_common_keys.begin(), k_common_keys.end());
  return keys;
}

/// A `${NAME}` that cannot be read is a problem now; whether NAME is set is seen at start.
void check_references(const YamlNode& node, const std::string& name, const std::string& text, YamlChecker& checker) {
  for (std::size_t at = text.find("${"); at != std::string::npos; at = text.find("${", at + 2)) {
    std::size_t end = text.find('}', at);
    std::string variable = end == std::string::npos ? text.substr(at + 2) : text.substr(at + 2, end - at - 2);
    bool good = end != std::string::npos && !variable.empty() &&
                std::all_of(variable.begin(), variable.end(),
                            [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!good) checker.add(node.mark, "'" + name + "' holds '${" + variable + "', which is not a ${NAME} reference");
  }
}

/// `env:` or `headers:`: a map of names to text values, which may hold `${NAME}`.
std::vector<std::pair<std::string, std::string>> read_text_map(const YamlNode& value, const std::string& name,
                                                               YamlChecker& checker) {
  std::vector<std::pair<std::string, std::string>> pairs;
  if (!value.is_map()) {
    checker.add(value.mark, "'" + name + "' must be a map of names to values, got " + describe_yaml(value));
    return pairs;
  }
  for (const YamlEntry& entry : value.entries) {
    std::string field = name + "." + entry.key;
    std::optional<std::string> text =
        entry.value.is_scalar() ? std::optional<std::string>(entry.value.scalar) : std::nullopt;
    if (!text) {
      checker.add(entry.value.mark, "'" + field + "' must be a text value, got " + describe_yaml(entry.value));
      continue;
    }
    check_references(entry.value, field, *text, checker);
    pairs.emplace_back(entry.key, *text);
  }
  return pairs;
}

/// Keys of one kind of server in an entry of the other kind.
void refuse_keys_of_other_kind(const YamlNode& value, const std::string& name, bool stdio, YamlChecker& checker) {
  const std::vector<std::string>& other = stdio ? k_http_keys : k_stdio_keys;
  for (const YamlEntry& entry : value.entries) {
    if (std::find(other.begin(), other.end(), entry.key) == other.end()) continue;
    checker.add(entry.key_mark, "'" + name + "." + entry.key + "' is for " +
                                    (stdio ? "HTTP servers (url)" : "stdio servers (command)") + "; this one has '" +
                                    (stdio ? "command" : "url") + "'");
  }
}

void read_stdio(const YamlNode& value, const std::string& name, McpServerSpec& spec, YamlChecker& checker) {
  const YamlNode& command = *value.find("command");
  if (command.is_sequence()) {
    checker.add(command.mark, "'" + name + ".command' is the program alone; put its arguments in 'args'");
  } else if (auto program = checker.text(command, name + ".command")) {
    spec.command.push_back(*program);
  }
  if (const YamlNode* args = value.find("args")) {
    if (auto list = checker.text_list(*args, name + ".args"))
      spec.command.insert(spec.command.end(), list->begin(), list->end());
  }
  if (const YamlNode* env = value.find("env")) spec.env = read_text_map(*env, name + ".env", checker);
  if (const YamlNode* cwd = value.find("cwd")) {
    if (auto folder = checker.text(*cwd, name + ".cwd")) spec.cwd = std::filesystem::path(*folder);
  }
  if (const YamlNode* sandbox = value.find("sandbox")) {
    if (checker.choice(*sandbox, name + ".sandbox", {"on", "off"}) == "off") spec.sandbox = McpSandbox::off;
  }
}

void read_http(const YamlNode& value, const std::string& name, McpServerSpec& spec, YamlChecker& checker) {
  const YamlNode& url = *value.find("url");
  if (auto text = checker.text(url, name + ".url")) {
    if (text->rfind("http://", 0) != 0 && text->rfind("https://", 0) != 0) {
      checker.add(url.mark, "'" + name + ".url' must start with http:// or https://, got " + describe_yaml(url));
    } else {
      spec.url = *text;
    }
  }
  if (const YamlNode* headers = value.find("headers"))
    spec.headers = read_text_map(*headers, name + ".headers", checker);
}

}  // namespace

std::optional<McpServerSpec> read_mcp_server(const YamlEntry& entry, YamlChecker& checker, const std::string& file) {
  const std::string name = "mcp_servers." + entry.key;
  if (auto problem = mcp_server_name_problem(entry.key); problem || entry.key.find('*') != std::string::npos) {
    checker.add(entry.key_mark, problem ? *problem : "the MCP server name '" + entry.key + "' may not hold '*'");
  }
  const YamlNode& value = entry.value;
  if (!checker.check_map(value, name, known_keys())) return std::nullopt;
  McpServerSpec spec;
  spec.name = entry.key;
  spec.origin = file + ":" + std::to_string(entry.key_mark.line) + ":" + std::to_string(entry.key_mark.column);
  const bool stdio = value.find("command") != nullptr;
  const bool http = value.find("url") != nullptr;
  if (stdio == http) {
    checker.add(value.mark, "'" + name + "' needs either 'command' (a stdio server) or 'url' (streamable HTTP)" +
                                (stdio ? ", not both" : ""));
    return std::nullopt;
  }
  refuse_keys_of_other_kind(value, name, stdio, checker);
  if (stdio) read_stdio(value, name, spec, checker);
  if (http) read_http(value, name, spec, checker);
  if (const YamlNode* required = value.find("required")) {
    spec.required = checker.choice(*required, name + ".required", {"true", "false"}) == "true";
  }
  if (const YamlNode* timeout = value.find("startup_timeout")) {
    spec.startup_timeout = checker.duration(*timeout, name + ".startup_timeout");
  }
  return spec;
}

std::vector<McpServerSpec> read_mcp_servers(const YamlNode& value, YamlChecker& checker, const std::string& file) {
  std::vector<McpServerSpec> servers;
  if (!value.is_map()) {
    if (!value.is_null())
      checker.add(value.mark, "'mcp_servers' must be a map of server names to entries, got " + describe_yaml(value));
    return servers;
  }
  for (const YamlEntry& entry : value.entries) {
    if (auto spec = read_mcp_server(entry, checker, file)) servers.push_back(std::move(*spec));
  }
  return servers;
}

}  // namespace agent_run
