#include "exec/process.h"

#include "base/cancellation.h"
#include "exec/output_capture.h"
#include "exec/process_watch.h"
#include "exec/spawn.h"

#include <string>
#include <utility>

namespace agent_run {

namespace {

/// Collects a foreground command's output, head and tail.
class CaptureSink final : public OutputSink {
 public:
  CaptureSink(std::size_t head_bytes, std::size_t tail_bytes) : m_capture(head_bytes, tail_bytes) {}
  void append(std::string_view bytes) override { m_capture.append(bytes); }
  const OutputCapture& capture() const { return m_capture; }

 private:
  OutputCapture m_capture;
};

}  // namespace

Expected<ProcessResult> run_process(const ProcessSpec& spec) {
  if (spec.cancellation && spec.cancellation->cancelled()) {  // the run is stopping: start nothing new
    ProcessResult not_started;
    not_started.cancelled = true;
    return not_started;
  }
  auto start_time = std::chrono::steady_clock::now();
  Expected<SpawnedProcess> spawned = spawn_child(child_spec_of(spec));
  if (!spawned) return spawned.error();
  pid_t pid = spawned->pid;
  auto deadline = spec.timeout.count() > 0 ? start_time + spec.timeout : ProcessWatch::TimePoint::max();
  CaptureSink sink(spec.output_head_bytes, spec.output_tail_bytes);
  ProcessWatch watch(std::move(*spawned), deadline, spec.kill_grace, sink, spec.cancellation);
  ProcessEnding ending = watch.run();
  ProcessResult result;
  result.exit_code = ending.exit_code;
  result.signal = ending.signal;
  result.timed_out = ending.timed_out;
  result.cancelled = ending.cancelled;
  result.output = sink.capture().text();
  result.output_bytes = sink.capture().total();
  result.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_time).count();
  result.pid = pid;
  return result;
}

ProcessSpec shell_command(const std::string& command, const std::filesystem::path& cwd,
                          std::chrono::milliseconds timeout) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", command};
  spec.cwd = cwd;
  spec.timeout = timeout;
  return spec;
}

}  // namespace agent_run
