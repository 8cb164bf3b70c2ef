// libFuzzer target for the task file loader (and through it the YAML reader every input file
// shares): whatever the bytes, load_task must not crash, and a file it refuses gets problems that
// each name the file, line and column (`FILE:LINE:COL: ...`), as docs/tasks.md promises.
#include "fuzz_support.h"
#include "task/task_loader.h"

using namespace agent_run;
using agent_run::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto task = load_task(fuzz::as_text(data, size), "/fuzz/tasks/t.yaml");
  if (!task) {
    require(!task.error().message.empty());
    require(fuzz::every_line_starts_with(task.error().message, "/fuzz/tasks/t.yaml:"));
  }
  return 0;
}
