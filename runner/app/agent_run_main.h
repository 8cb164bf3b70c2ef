#pragma once

namespace agent_run {

/// The whole program behind main(): parses the command line, runs the subcommand, returns the exit code.
int agent_run_main(int argc, char** argv);

}  // namespace agent_run
