#include "mcp/stdio_transport.h"

#include "base/cancellation.h"
#include "base/text.h"
#include "mcp/json_rpc_message.h"

#include <csignal>

namespace agent_run {

namespace {

constexpr std::chrono::milliseconds k_write_patience{5000};
constexpr std::chrono::milliseconds k_exit_patience{1000};  // after its stdout closed, for its exit status
constexpr std::chrono::milliseconds k_sigterm_patience{1000};
constexpr std::size_t k_quoted_bytes = 200;
constexpr std::size_t k_stderr_in_message_bytes = 600;

std::string quoted_start(std::string_view text) {
  std::string start = repair_utf8(text.substr(0, k_quoted_bytes));
  return "'" + start + (text.size() > k_quoted_bytes ? "...'" : "'");
}

}  // namespace

StdioTransport::StdioTransport(StdioCommand command, LaunchWrapper wrap, const Cancellation* cancellation,
                               std::size_t max_message_bytes)
    : m_command(std::move(command)), m_wrap(std::move(wrap)), m_cancellation(cancellation), m_lines(max_message_bytes) {
}

StdioTransport::~StdioTransport() { close(std::chrono::milliseconds(0)); }

Expected<void> StdioTransport::open(TransportListener& listener) {
  if (m_cancellation && m_cancellation->cancelled()) {
    return make_error("agent-run is stopping (SIGINT or SIGTERM): nothing new is started");
  }
  ProcessSpec spec;
  spec.argv = m_command.argv;
  spec.cwd = m_command.cwd;
  spec.environment = m_command.environment;
  if (m_wrap) {  // inside the sandbox a missing program would be the entry's shell's word: said plainly here
    if (!spec.argv.empty() && !find_program(spec.argv.front(), m_command.environment)) {
      return make_error("cannot run '" + spec.argv.front() + "': not found on PATH");
    }
    spec = m_wrap(std::move(spec));
  }
  Expected<ChildProcess> child =
      ChildProcess::spawn(spec.argv, spec.cwd, spec.environment.value_or(m_command.environment));
  if (!child) return child.error();
  m_listener = &listener;
  std::lock_guard lock(m_child_mutex);
  m_child.emplace(std::move(*child));
  m_reader = std::make_unique<ChildReader>(
      *m_child, [this](std::string_view bytes) { return take_stdout(bytes); },
      [this](ReadEnd end) { on_read_end(end); }, m_cancellation, k_stderr_tail_bytes);
  return {};
}

Expected<void> StdioTransport::send(const Json& message, TimePoint deadline) {
  std::lock_guard lock(m_write_mutex);
  if (!m_child) return make_error("the MCP server is not running");
  auto until = std::min(deadline, std::chrono::steady_clock::now() + k_write_patience);
  if (!m_child->write_all(message_line(message), until)) return make_error("the MCP server does not read its stdin");
  return {};
}

/// The reader's thread: each line is one message or a batch; blank lines are skipped.
bool StdioTransport::take_stdout(std::string_view bytes) {
  m_lines.append(bytes);
  while (auto line = m_lines.next()) {
    if (!*line) {
      m_refusal = "it wrote " + line->error().message;
      return false;
    }
    if (trim(**line).empty()) continue;
    Expected<std::vector<Json>> messages = messages_in(**line);
    if (!messages) {
      m_refusal = "it wrote something that is not JSON-RPC on its stdout: " + quoted_start(**line);
      return false;
    }
    for (const Json& message : *messages) m_listener->on_message(message);
  }
  return true;
}

void StdioTransport::on_read_end(ReadEnd end) { m_listener->on_closed(why_it_ended(end)); }

/// Says what happened (and signals the server for a cancellation or garbage), with its last words.
std::string StdioTransport::why_it_ended(ReadEnd end) {
  std::lock_guard lock(m_child_mutex);  // also: open() has finished setting m_reader
  std::string why;
  switch (end) {
    case ReadEnd::cancelled:
      m_child->signal_group(SIGTERM);
      why = "agent-run is stopping (SIGINT or SIGTERM)";
      break;
    case ReadEnd::refused:
      m_child->signal_group(SIGKILL);
      why = m_refusal;
      break;
    case ReadEnd::stopped: why = "agent-run closed the connection"; break;
    case ReadEnd::closed: {
      if (!m_closed) m_child->wait_exit(k_exit_patience);
      std::string ending = m_child->exit_description();
      why = "it " + (ending.empty() ? std::string("closed its stdout") : ending);
      break;
    }
  }
  std::string said(trim(m_reader->stderr_tail()));
  if (!said.empty()) why += "; its stderr ends: " + tail_of(said, k_stderr_in_message_bytes);
  return why;
}

void StdioTransport::close(std::chrono::milliseconds grace) {
  {
    std::lock_guard lock(m_child_mutex);
    if (m_closed || !m_child) {
      m_closed = true;
      return;
    }
    m_closed = true;
  }
  {
    std::lock_guard lock(m_write_mutex);
    m_child->close_stdin();
  }
  {
    std::lock_guard lock(m_child_mutex);
    if (!m_child->wait_exit(grace)) {
      m_child->signal_group(SIGTERM);
      if (!m_child->wait_exit(std::min(grace, k_sigterm_patience))) m_child->kill_and_reap();
    }
  }
  m_reader->stop();
}

TransportFacts StdioTransport::facts() const {
  TransportFacts facts;
  std::lock_guard lock(m_child_mutex);
  if (m_reader) {
    facts.stderr_tail = m_reader->stderr_tail();
    facts.stderr_bytes = m_reader->stderr_bytes();
  }
  if (m_child) facts.ending = m_child->exit_description();
  return facts;
}

pid_t StdioTransport::pid() const {
  std::lock_guard lock(m_child_mutex);
  return m_child ? m_child->pid() : -1;
}

}  // namespace agent_run
