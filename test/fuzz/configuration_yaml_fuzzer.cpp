// libFuzzer target for the run-wide configuration loader (agent-run.yaml): whatever the bytes,
// load_configuration must not crash, and a file it refuses gets problems that each name the file,
// line and column (`FILE:LINE:COL: ...`), as a task file's do.
#include "fuzz_support.h"
#include "task/configuration_loader.h"

using namespace agent_run;
using agent_run::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto configuration = load_configuration(fuzz::as_text(data, size), "/fuzz/agent-run.yaml");
  if (!configuration) {
    require(!configuration.error().message.empty());
    require(fuzz::every_line_starts_with(configuration.error().message, "/fuzz/agent-run.yaml:"));
  }
  return 0;
}
