#include "exec/background_process.h"

#include "exec/output_capture.h"

namespace agent_run {

namespace {

// What a read returns of the output since the last one: a little of its start, more of its end.
constexpr std::size_t k_read_head_bytes = 8 * 1024;
constexpr std::size_t k_read_tail_bytes = 24 * 1024;

}  // namespace

const char* to_string(EndedBy by) {
  switch (by) {
    case EndedBy::itself: return "exited";
    case EndedBy::process_kill: return "process_kill";
    case EndedBy::attempt_end: return "attempt_end";
  }
  return "exited";
}

/// The output not yet read, as an OutputCapture per read, plus the total; fed by the watching thread.
class BackgroundProcess::Buffer final : public OutputSink {
 public:
  Buffer(std::mutex& mutex, std::condition_variable& changed) : m_mutex(mutex), m_changed(changed) {}

  void append(std::string_view bytes) override {
    std::lock_guard lock(m_mutex);
    m_unread.append(bytes);
    m_total += bytes.size();
    m_changed.notify_all();
  }
  /// Takes the unread output; the caller holds the mutex.
  OutputCapture take() { return std::exchange(m_unread, OutputCapture(k_read_head_bytes, k_read_tail_bytes)); }
  std::size_t unread_bytes() const { return m_unread.total(); }
  std::size_t total() const { return m_total; }

 private:
  std::mutex& m_mutex;
  std::condition_variable& m_changed;
  OutputCapture m_unread{k_read_head_bytes, k_read_tail_bytes};
  std::size_t m_total = 0;
};

BackgroundProcess::BackgroundProcess(std::string handle, std::string command, pid_t pid)
    : m_handle(std::move(handle)), m_command(std::move(command)), m_pid(pid),
      m_buffer(std::make_unique<Buffer>(m_mutex, m_changed)) {}

Expected<std::unique_ptr<BackgroundProcess>> BackgroundProcess::start(const ProcessSpec& spec, std::string handle,
                                                                      std::string command) {
  Expected<SpawnedProcess> spawned = spawn_child(child_spec_of(spec));
  if (!spawned) return spawned.error();
  std::unique_ptr<BackgroundProcess> process(
      new BackgroundProcess(std::move(handle), std::move(command), spawned->pid));
  process->m_watch = std::make_unique<ProcessWatch>(std::move(*spawned), ProcessWatch::TimePoint::max(),
                                                    spec.kill_grace, *process->m_buffer, spec.cancellation);
  process->m_thread = std::thread([p = process.get()] { p->watch(); });
  return process;
}

BackgroundProcess::~BackgroundProcess() {
  if (m_thread.joinable()) {
    m_watch->request_stop();
    m_thread.join();
  }
}

void BackgroundProcess::watch() {
  ProcessEnding ending = m_watch->run();
  std::lock_guard lock(m_mutex);
  if (ending.cancelled && m_ended_by == EndedBy::itself) m_ended_by = EndedBy::attempt_end;  // the run is stopping
  m_ending = ending;
  m_changed.notify_all();
}

BackgroundRead BackgroundProcess::take_locked() {
  BackgroundRead read;
  read.new_bytes = m_buffer->unread_bytes();
  read.output = m_buffer->take().text();
  read.running = !m_ending.has_value();
  read.ending = m_ending;
  return read;
}

BackgroundRead BackgroundProcess::read_new(std::chrono::milliseconds wait) {
  std::unique_lock lock(m_mutex);
  m_changed.wait_for(lock, wait, [&] { return m_ending.has_value() || m_buffer->unread_bytes() > 0; });
  return take_locked();
}

void BackgroundProcess::begin_stop(EndedBy by) {
  {
    std::lock_guard lock(m_mutex);
    if (m_ending) return;
    m_ended_by = by;
  }
  m_watch->request_stop();
}

BackgroundRead BackgroundProcess::stop(EndedBy by) {
  begin_stop(by);
  if (m_thread.joinable()) m_thread.join();
  std::lock_guard lock(m_mutex);
  return take_locked();
}

std::size_t BackgroundProcess::output_bytes() const {
  std::lock_guard lock(m_mutex);
  return m_buffer->total();
}

std::optional<ProcessEnding> BackgroundProcess::ending() const {
  std::lock_guard lock(m_mutex);
  return m_ending;
}

EndedBy BackgroundProcess::ended_by() const {
  std::lock_guard lock(m_mutex);
  return m_ended_by;
}

}  // namespace agent_run
