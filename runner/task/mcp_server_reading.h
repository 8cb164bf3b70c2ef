#pragma once

#include "base/yaml_document.h"
#include "mcp/server_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// Reads one entry of `mcp_servers:` (its key is the server's name): `{command, args, env, cwd,
/// sandbox, required, startup_timeout}` for a stdio server, or `{url, headers, required,
/// startup_timeout}` for streamable HTTP. Problems go to `checker` (`file` names the file in the
/// entry's origin); nullopt when the entry is no map or names no kind of server (a loader fails on
/// any problem anyway). The task loader and the run-wide configuration's loader both call it.
std::optional<McpServerSpec> read_mcp_server(const YamlEntry& entry, YamlChecker& checker, const std::string& file);

/// Reads a whole `mcp_servers:` map, refusing names that could make two tool names collide (a
/// `__`, a leading or trailing `_`, anything but letters, digits, `-` and `_`).
std::vector<McpServerSpec> read_mcp_servers(const YamlNode& value, YamlChecker& checker, const std::string& file);

}  // namespace agent_run
