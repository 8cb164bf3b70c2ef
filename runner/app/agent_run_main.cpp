#include "app/agent_run_main.h"

#include "app/commands.h"
#include "app/environment.h"
#include "app/mcp_command.h"
#include "exec/subreaper.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <iostream>

extern char** environ;

namespace agent_run {

int agent_run_main(int argc, char** argv) {
  std::vector<std::string> arguments(argv + 1, argv + argc);
  auto options = parse_cli(arguments);
  if (!options) {
    std::cerr << "agent-run: " << options.error().message << "\n"
              << "try 'agent-run --help'\n";
    return static_cast<int>(ExitCode::invalid);
  }
  ProgramContext context{std::vector<std::string>(argv, argv + argc), scrubbed_environment(environ), environ, std::cout,
                         std::cerr};
  context.out_is_terminal = ::isatty(STDOUT_FILENO) == 1;
  if (winsize size{}; context.out_is_terminal && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    context.terminal_width = size.ws_col;
  }
  context.environ_entries = environ;
  context.model_access = read_model_access(environ);
  for (char** entry = environ; entry && *entry; ++entry) context.variables.emplace_back(*entry);
  switch (options->command) {
    case Command::help: std::cout << usage_text(); return 0;
    case Command::version: std::cout << "agent-run " << AGENT_RUN_VERSION << "\n"; return 0;
    case Command::validate: return validate_command(*options, context);
    case Command::merge: return merge_command(*options, context);
    case Command::compare: return compare_command(*options, context);
    case Command::policy_explain: return policy_explain_command(*options, context);
    case Command::policy_test: return policy_test_command(*options, context);
    case Command::tool: return tool_command(*options, context, std::cin);
    case Command::config: return config_command(*options, context);
    case Command::mcp: return mcp_command(*options, context);
    case Command::doctor: return doctor_command(*options, context);
    case Command::run: break;
  }
  if (auto subreaper = become_child_subreaper(); !subreaper) {  // so escaped processes can be found and reaped
    std::cerr << "agent-run: warning: " << subreaper.error().message << "\n";
  }
  try {
    return run_command(*options, context);
  } catch (const std::exception& e) {
    std::cerr << "agent-run: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::not_judged);
  }
}

}  // namespace agent_run
