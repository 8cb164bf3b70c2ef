#include "diagnostics/language_server.h"

#include "base/text.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <csignal>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::size_t k_stderr_tail_bytes = 2048;
constexpr std::chrono::milliseconds k_write_timeout{1000};
constexpr int k_method_not_found = -32601;

Json response(const Json& id, Json result) {
  return Json::object().set("jsonrpc", "2.0").set("id", id).set("result", std::move(result));
}

}  // namespace

Expected<std::unique_ptr<LanguageServer>> LanguageServer::start(const ServerSpec& spec,
                                                                const std::filesystem::path& root,
                                                                const std::vector<std::string>& environment,
                                                                std::chrono::milliseconds initialize_timeout,
                                                                const AttemptSandbox* sandbox) {
  // In the attempt's sandbox, which shows the workspace at the same path: the server reads the
  // agent's files and may run the project's own code (a local tsserver, a go toolchain directive).
  Expected<ChildProcess> child =
      sandbox ? ChildProcess::spawn(sandbox->wrap_argv(spec.argv, root), root, sandbox->inside_environment(environment))
              : ChildProcess::spawn(spec.argv, root, environment);
  if (!child) return child.error();
  std::unique_ptr<LanguageServer> server(
      new LanguageServer(spec, root, std::move(*child), initialize_timeout, sandbox != nullptr));
  return server;
}

LanguageServer::LanguageServer(const ServerSpec& spec, const std::filesystem::path& root, ChildProcess child,
                               std::chrono::milliseconds initialize_timeout, bool own_pid_namespace)
    : m_spec(spec), m_root(root), m_child(std::move(child)), m_own_pid_namespace(own_pid_namespace),
      m_initialize_timeout(initialize_timeout),
      m_initialize_deadline(SteadyClock::now() + initialize_timeout) {
  if (::pipe2(m_wake, O_CLOEXEC | O_NONBLOCK) != 0) m_wake[0] = m_wake[1] = -1;
  {
    std::lock_guard lock(m_mutex);
    m_initialize_id = m_next_id++;
  }
  // Handlers are in place (the I/O thread) before initialize goes out: some servers ask during it.
  m_io = std::thread([this] { io_loop(); });
  Json request = Json::object().set("jsonrpc", "2.0").set("id", m_initialize_id).set("method", "initialize");
  request.set("params", initialize_params());
  if (!send(request)) fail("it did not read its input");
}

LanguageServer::~LanguageServer() {
  shutdown(std::chrono::milliseconds(1000));
  if (m_wake[0] >= 0) ::close(m_wake[0]);
  if (m_wake[1] >= 0) ::close(m_wake[1]);
}

Json LanguageServer::initialize_params() const {
  Json folder = Json::object().set("uri", path_to_uri(m_root)).set("name", m_root.filename().string());
  Json diagnostics = Json::object()
                         .set("relatedInformation", false)
                         .set("versionSupport", true)
                         .set("tagSupport", Json::object().set("valueSet", Json(Json::Array{1, 2})));
  Json text_document =
      Json::object()
          .set("synchronization", Json::object().set("didSave", true).set("dynamicRegistration", false))
          .set("publishDiagnostics", std::move(diagnostics))
          .set("diagnostic", Json::object().set("dynamicRegistration", true));
  Json workspace = Json::object()
                       .set("configuration", true)
                       .set("workspaceFolders", true)
                       .set("didChangeWatchedFiles", Json::object().set("dynamicRegistration", true));
  Json capabilities = Json::object()
                          .set("general", Json::object().set("positionEncodings", Json(Json::Array{"utf-16"})))
                          .set("window", Json::object().set("workDoneProgress", true))
                          .set("workspace", std::move(workspace))
                          .set("textDocument", std::move(text_document));
  Json params = Json::object()
                    // In the sandbox's own PID namespace our pid names no process, or another one:
                    // servers that poll it (pyright, typescript-language-server: every 3 s) would exit.
                    .set("processId", m_own_pid_namespace ? Json() : Json(static_cast<long long>(::getpid())))
                    .set("clientInfo", Json::object().set("name", "agent-run"))
                    .set("rootUri", path_to_uri(m_root))
                    .set("rootPath", m_root.string())
                    .set("workspaceFolders", Json(Json::Array{folder}))
                    .set("capabilities", std::move(capabilities));
  if (!m_spec.initialization_options.is_null()) params.set("initializationOptions", m_spec.initialization_options);
  return params;
}

ServerState LanguageServer::state() const {
  std::lock_guard lock(m_mutex);
  return m_state;
}

std::string LanguageServer::failure() const {
  std::lock_guard lock(m_mutex);
  return m_failure;
}

std::string LanguageServer::version() const {
  std::lock_guard lock(m_mutex);
  return m_version;
}

bool LanguageServer::wait_ready(SteadyClock::time_point deadline) {
  std::unique_lock lock(m_mutex);
  m_changed.wait_until(lock, deadline, [&] { return m_state != ServerState::starting; });
  return m_state == ServerState::ready;
}

void LanguageServer::fail(const std::string& why) {
  std::lock_guard lock(m_mutex);
  if (m_state == ServerState::failed) return;
  m_state = ServerState::failed;
  std::string tail(trim(m_stderr_tail));
  m_failure = why + (tail.empty() ? "" : "; its stderr ends: " + tail);
  m_child.signal_group(SIGKILL);
  m_changed.notify_all();
}

bool LanguageServer::send(const Json& message) {
  std::lock_guard lock(m_write_mutex);
  return m_child.write_all(frame_json_rpc(message), SteadyClock::now() + k_write_timeout);
}

std::int64_t LanguageServer::send_request(const std::string& method, Json params) {
  std::int64_t id = 0;
  {
    std::lock_guard lock(m_mutex);
    id = m_next_id++;
  }
  Json request =
      Json::object().set("jsonrpc", "2.0").set("id", id).set("method", method).set("params", std::move(params));
  if (!send(request)) fail("it stopped reading its input");
  return id;
}

void LanguageServer::io_loop() {
  bool out_open = true;
  bool err_open = true;
  while (out_open) {
    int timeout = -1;
    if (state() == ServerState::starting) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(m_initialize_deadline - SteadyClock::now()).count();
      if (left <= 0) {
        fail("it did not answer initialize in time");
        return;
      }
      timeout = static_cast<int>(left);
    }
    pollfd fds[3] = {
        {m_child.stdout_fd(), POLLIN, 0}, {err_open ? m_child.stderr_fd() : -1, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
    if (::poll(fds, 3, timeout) < 0) continue;
    if (fds[2].revents != 0) return;
    if (fds[1].revents != 0) err_open = read_stream(m_child.stderr_fd(), false);
    if (fds[0].revents != 0) out_open = read_stream(m_child.stdout_fd(), true);
    if (state() == ServerState::failed) return;
  }
  fail("it exited");
}

/// Reads what is available; false at end of file. Stdout goes to the JSON-RPC reader, stderr to a tail.
bool LanguageServer::read_stream(int fd, bool is_stdout) {
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
    if (n == 0) return false;
    if (!is_stdout) {
      std::lock_guard lock(m_mutex);
      m_stderr_tail = tail_of(m_stderr_tail + std::string(buffer, static_cast<std::size_t>(n)), k_stderr_tail_bytes);
      continue;
    }
    m_reader.append(std::string_view(buffer, static_cast<std::size_t>(n)));
    while (auto message = m_reader.next()) {
      if (!*message) {
        fail("it answered with garbage (" + message->error().message + ")");
        return false;
      }
      handle_message(**message);
    }
  }
}

std::uint64_t LanguageServer::messages_received() const {
  std::lock_guard lock(m_mutex);
  return m_received;
}

void LanguageServer::handle_message(const Json& message) {
  {
    std::lock_guard lock(m_mutex);
    ++m_received;
  }
  const Json* method = message.find("method");
  const Json* id = message.find("id");
  if (method && id) {
    handle_server_request(message);
  } else if (method) {
    if (method->is_string() && method->as_string() == "textDocument/publishDiagnostics" && message.find("params")) {
      handle_publish(*message.find("params"));
    }
  } else if (id && id->is_integer()) {
    if (id->as_int() == m_initialize_id) {
      handle_initialized(message);
      return;
    }
    std::lock_guard lock(m_mutex);
    if (m_abandoned.erase(id->as_int())) return;  // cancelled: nobody waits for it
    if (id->as_int() == m_priming_request && m_priming_request != 0) {
      take_priming_answer(message);
    } else {
      m_responses[id->as_int()] = message;
    }
    m_changed.notify_all();
  }
}

void LanguageServer::handle_server_request(const Json& message) {
  const Json& id = *message.find("id");
  std::string method = message.get_string("method");
  const Json* params = message.find("params");
  Json result;
  if (method == "workspace/configuration") {
    result = Json::array();
    const Json* items = params ? params->find("items") : nullptr;
    std::size_t count = items && items->is_array() ? items->as_array().size() : 0;
    result.as_array().resize(count);
  } else if (method == "client/registerCapability" || method == "client/unregisterCapability") {
    track_registrations(method == "client/registerCapability", params);
  } else if (method == "workspace/workspaceFolders") {
    result = Json(Json::Array{Json::object().set("uri", path_to_uri(m_root)).set("name", m_root.filename().string())});
  } else if (method != "window/workDoneProgress/create" && method != "window/showMessageRequest" &&
             method.find("/refresh") == std::string::npos) {
    Json error = Json::object().set("code", k_method_not_found).set("message", "not supported: " + method);
    send(Json::object().set("jsonrpc", "2.0").set("id", id).set("error", std::move(error)));
    return;
  }
  send(response(id, std::move(result)));
}

/// Records (un)registrations of pull diagnostics (`textDocument/diagnostic`) and of file watchers
/// (`workspace/didChangeWatchedFiles`) by their ids.
void LanguageServer::track_registrations(bool registering, const Json* params) {
  const Json* list = params ? params->find(registering ? "registrations" : "unregisterations") : nullptr;
  if (!list || !list->is_array()) return;
  std::lock_guard lock(m_mutex);
  for (const Json& registration : list->as_array()) {
    const std::string method = registration.get_string("method");
    std::set<std::string>* ids = method == "textDocument/diagnostic"            ? &m_pull_registrations
                                 : method == "workspace/didChangeWatchedFiles" ? &m_watch_registrations
                                                                               : nullptr;
    if (!ids) continue;
    if (!registering) {
      ids->erase(registration.get_string("id"));
      continue;
    }
    ids->insert(registration.get_string("id"));
    if (const Json* options = registration.find("registerOptions"); options && ids == &m_pull_registrations)
      m_pull_identifier = options->get_string("identifier");
  }
  m_pull_registered = !m_pull_registrations.empty();
  m_changed.notify_all();
}

void LanguageServer::handle_initialized(const Json& message) {
  const Json* result = message.find("result");
  if (!result || !result->is_object()) {
    const Json* error = message.find("error");
    fail("its initialize failed: " + (error ? error->get_string("message", error->dump()) : std::string("no result")));
    return;
  }
  {
    std::lock_guard lock(m_mutex);
    if (const Json* info = result->find("serverInfo")) m_version = info->get_string("version");
    const Json* capabilities = result->find("capabilities");
    m_pull_static = capabilities && capabilities->find("diagnosticProvider") &&
                    !capabilities->find("diagnosticProvider")->is_null();
    if (m_pull_static) {
      if (const Json* provider = capabilities->find("diagnosticProvider"); provider->is_object()) {
        m_pull_identifier = provider->get_string("identifier");
      }
    }
  }
  send(Json::object().set("jsonrpc", "2.0").set("method", "initialized").set("params", Json::object()));
  std::lock_guard lock(m_mutex);
  if (m_state == ServerState::starting) m_state = ServerState::ready;
  m_changed.notify_all();
}

void LanguageServer::handle_publish(const Json& params) {
  std::string uri = params.get_string("uri");
  const Json* items = params.find("diagnostics");
  const Json* version = params.find("version");
  if (uri.empty() || !items || !items->is_array()) return;
  std::lock_guard lock(m_mutex);
  Published& published = m_published[uri];
  published.items = items->as_array();
  published.version = version && version->is_integer() ? std::optional<std::int64_t>(version->as_int()) : std::nullopt;
  published.sequence = ++m_sequence;
  published.arrived = SteadyClock::now();
  m_answered = true;
  m_changed.notify_all();
}

bool LanguageServer::shutdown(std::chrono::milliseconds grace) {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    m_changed.notify_all();
  }
  if (m_primer.joinable()) m_primer.join();
  if (!m_io.joinable()) return false;
  const auto deadline = SteadyClock::now() + grace;
  if (state() == ServerState::ready) {
    std::int64_t id = send_request("shutdown", nullptr);
    (void)await_response(id, deadline);
    send(Json::object().set("jsonrpc", "2.0").set("method", "exit"));
  }
  m_child.close_stdin();
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
  bool exited = m_child.wait_exit(std::max(left, std::chrono::milliseconds(50)));
  if (!exited) m_child.signal_group(SIGKILL);
  if (m_wake[1] >= 0) (void)::write(m_wake[1], "x", 1);
  m_io.join();
  m_child.kill_and_reap();
  return exited;
}

}  // namespace agent_run
