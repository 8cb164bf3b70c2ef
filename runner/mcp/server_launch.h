#pragma once

#include "base/expected.h"
#include "mcp/mcp_client.h"
#include "mcp/server_spec.h"
#include "mcp/stdio_transport.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

class Cancellation;

/// What the servers of one attempt (or of `agent-run mcp`) are started with.
struct McpLaunchContext {
  std::vector<std::string> environment;  // KEY=VALUE: a stdio server's environment before its `env`
  std::vector<std::string> variables;    // KEY=VALUE: where `${VAR}` is looked up (agent-run's own)
  std::filesystem::path workspace;       // a stdio server's default folder, and the root offered
  bool offer_roots = true;               // false: no `roots` capability (a server may then wait for more
                                         // after its stdin ends, as server-everything does when it has roots)
  LaunchWrapper sandbox;                 // puts a stdio server into the sandbox; empty: no sandbox
  bool sandbox_has_network = false;      // with `sandbox`: whether a server inside reaches the network
  const Cancellation* cancellation = nullptr;
  ElicitationHandler elicitation;                    // empty: elicitations are declined
  std::chrono::milliseconds startup_timeout{30000};  // unless the entry names its own
};

/// Starts the server of `spec` and initializes it. The error names the server and says what went
/// wrong; no `${VAR}` value appears in it, nor in anything the client hands out. A server whose
/// command fetches its package (`npx -y PKG`) into a sandbox without the network fails at once, saying so.
Expected<std::unique_ptr<McpClient>> connect_server(const McpServerSpec& spec, const McpLaunchContext& context);

/// `text` with every `${NAME}` replaced from `variables`; each value used is added to `secrets`.
/// An unknown or malformed name is an error naming it, never a value.
Expected<std::string> expand_variables(std::string_view text, const std::vector<std::string>& variables,
                                       std::vector<std::string>& secrets);

}  // namespace agent_run
