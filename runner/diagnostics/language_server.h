#pragma once

#include "base/file_uri.h"
#include "base/json.h"
#include "diagnostics/json_rpc.h"
#include "diagnostics/workspace_survey.h"
#include "exec/attempt_sandbox.h"
#include "exec/child_process.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace agent_run {

/// How to start and wait for one kind of language server.
struct ServerSpec {
  std::string name;  // gopls, pyright-langserver, ...: the checker named in reports
  std::vector<std::string> argv;
  Json initialization_options;                    // null: none
  std::chrono::milliseconds settle{150};          // a push is final once no newer one came for this long
                                                  // (servers that publish once per change get a short one)
  std::chrono::milliseconds quiet_when_clean{0};  // >0: a server that says nothing when clean stays clean
  std::vector<std::string> version_argv;          // prints its version, for servers whose serverInfo has none
  std::chrono::milliseconds header_settle{0};     // >0: after a C/C++ header changed, the other open files
                                                  // are sent again and this long is left for their rebuilds
  bool opens_importers = false;  // the files importing an edited one are opened for their diagnostics: it
                                 // reads the edited file from its open document when it checks them, and
                                 // publishes (or answers a pull) for every document opened
};

/// One document's diagnostics as the server sent them (LSP Diagnostic objects).
struct DocumentDiagnostics {
  std::string uri;
  std::vector<Json> items;
};

/// What a server said about one version of one document: its own list, and the neighbours whose
/// lists changed because of it (with their lists before and after).
struct ServerAnswer {
  std::vector<Json> items;
  std::vector<DocumentDiagnostics> neighbours_before;
  std::vector<DocumentDiagnostics> neighbours_after;
};

/// A file to open beside the edited one (a file that imports it), with the text it holds on disk.
struct RelatedDocument {
  std::filesystem::path path;
  std::string language_id;
  std::string text;
};

/// What became of the related documents a check opened: the URIs whose diagnostics came (in
/// snapshot() from then on) and those whose did not come in time.
struct OpenedDocuments {
  std::set<std::string> answered;
  std::set<std::string> unanswered;
};

/// The diagnostics a server had published, per document URI, at one moment (its publish count then).
struct DiagnosticsSnapshot {
  std::map<std::string, std::vector<Json>> lists;
  std::uint64_t sequence = 0;
};

/// How a check reads a server that says nothing when a clean file stays clean (quiet_when_clean).
enum class Silence {
  means_clean,    // after its quiet window: clean (edits)
  means_waiting,  // wait for a publish until the deadline (warm-up on a file with a known error)
};

/// Where a server is in its life.
enum class ServerState { starting, ready, failed };

/// A running language server over JSON-RPC on its stdin and stdout: one process group, stderr
/// drained, every request of the server answered (several servers send nothing otherwise), an I/O
/// thread that keeps the latest published diagnostics per document. Initialization runs in the
/// background; a server that exits, times out initializing or writes garbage becomes `failed`.
class LanguageServer {
 public:
  /// Spawns the server for the workspace `root` and sends `initialize`; fails only when it cannot spawn.
  static Expected<std::unique_ptr<LanguageServer>> start(const ServerSpec& spec, const std::filesystem::path& root,
                                                         const std::vector<std::string>& environment,
                                                         std::chrono::milliseconds initialize_timeout,
                                                         const AttemptSandbox* sandbox = nullptr);
  ~LanguageServer();
  LanguageServer(const LanguageServer&) = delete;
  LanguageServer& operator=(const LanguageServer&) = delete;

  /// Where it is in its life: starting, ready or failed.
  ServerState state() const;
  /// Why the server failed (its exit, a timeout, garbage, the tail of its stderr).
  std::string failure() const;
  /// serverInfo.version from its initialize answer (empty when it gave none).
  std::string version() const;
  /// How it was started, and the project root it serves.
  const ServerSpec& spec() const { return m_spec; }
  const std::filesystem::path& root() const { return m_root; }
  /// Waits until the server is ready or failed, at most until `deadline`; true when ready.
  bool wait_ready(std::chrono::steady_clock::time_point deadline);
  /// The last diagnostics received for `path` if the server holds exactly `text` for it and they
  /// came after that text and after every change on disk it was told of since.
  std::optional<std::vector<Json>> known_diagnostics(const std::filesystem::path& path, const std::string& text) const;
  /// What the server has published so far.
  DiagnosticsSnapshot snapshot() const;
  /// Sends `text` as the content of `path` (open, or change and save) and waits, at most until
  /// `deadline`, for the diagnostics of that version: pulled when the server offers pull, else
  /// pushed, matched by version or arrival, and settled. Neighbours are the other documents whose
  /// lists differ from `since` (given for the check after an edit; default: from just before sending).
  Expected<ServerAnswer> check(const std::filesystem::path& path, const std::string& language_id,
                               const std::string& text, std::chrono::steady_clock::time_point deadline,
                               const DiagnosticsSnapshot* since = nullptr, Silence silence = Silence::means_clean);
  /// Opens each of `documents` that the server does not hold yet (language_server_related.cpp) and
  /// waits, at most until `deadline`, for their diagnostics: pulled when it offers pull, else pushed
  /// for that version and settled. Documents already open are left as they are and named in neither
  /// set. They stay open: catch_up() tells the server of their changes on disk like any other.
  OpenedDocuments open_related(const std::vector<RelatedDocument>& documents,
                               std::chrono::steady_clock::time_point deadline);
  /// Gives the server its first document with nobody waiting: `text` as `path` goes out as soon as
  /// it is ready, with a pull of its diagnostics when it offers pull, so that a cold server's first
  /// analysis (seconds for pyright on a real project) runs while a linter answers the edit, not
  /// inside the next edit's budget. Once per server; nothing when it has answered already.
  void prime(const std::filesystem::path& path, const std::string& language_id, const std::string& text);
  /// Whether it has answered once: a publish, a pull answer, or (a server silent about clean files)
  /// its quiet window after the primed document passed with nothing said.
  bool answered() const;
  /// True when it was primed and has not answered yet: its first analysis is under way.
  bool warming() const;
  /// How many messages it has sent (answers, late ones to abandoned requests included, publishes,
  /// requests): a server whose count grew after a check timed out is slow, not stuck.
  std::uint64_t messages_received() const;
  /// Waits until it has answered (see answered()) or failed, at most until `deadline`; true when answered.
  bool wait_answered(std::chrono::steady_clock::time_point deadline);
  /// Whether it holds a picture of the disk (given once, when it is started).
  bool has_disk_view() const { return m_disk.has_value(); }
  /// The files under its root as they were when it started (it reads them itself from there on).
  void set_disk_view(FolderSurvey disk) { m_disk = std::move(disk); }
  /// Tells the server every change on disk since its picture (language_server_sync.cpp): didChange
  /// with the full text for each open document whose file now holds another text, didClose for one
  /// whose file is gone (or hidden), and, when it registered a watcher, didChangeWatchedFiles with
  /// the files created, changed and deleted under its root; `disk` is its picture from then on.
  /// `skip` is the file an edit check is about to send itself. False when it could not be told
  /// (it has failed, and its answers are not to be trusted); nothing when it is not ready.
  bool catch_up(const FolderSurvey& disk, const std::filesystem::path& skip, const HiddenPath& hidden);
  /// `shutdown` and `exit`, then kills the group if it has not exited within `grace`; true when
  /// it exited by itself (false when it had to be killed, or was stopped already).
  bool shutdown(std::chrono::milliseconds grace);

 private:
  /// A document the server has open: its version and the text it holds.
  struct OpenDocument {
    int version = 0;
    std::string text;  // as written (the server may hold it with one more newline: `padded`)
    bool padded = false;
    std::uint64_t sent_sequence = 0;  // the publish count when it was sent: later publishes are about it
  };
  /// The latest diagnostics published (or pulled) for one document.
  struct Published {
    std::vector<Json> items;
    std::optional<std::int64_t> version;
    std::uint64_t sequence = 0;
    std::chrono::steady_clock::time_point arrived;
  };

  /// The first document, given before anyone asked for a check (prime()).
  struct Priming {
    std::string uri;
    std::string language_id;
    std::string text;
    int version = 0;  // the version it went out as
  };

  LanguageServer(const ServerSpec& spec, const std::filesystem::path& root, ChildProcess child,
                 std::chrono::milliseconds initialize_timeout, bool own_pid_namespace);

  // Priming (language_server_priming.cpp): the thread that sends the first document.
  void prime_when_ready();
  void take_priming_answer(const Json& message);
  void cancel(const std::vector<std::int64_t>& ids);

  // I/O thread (language_server.cpp).
  void io_loop();
  bool read_stream(int fd, bool is_stdout);
  void handle_message(const Json& message);
  void handle_server_request(const Json& message);
  void handle_initialized(const Json& message);
  void track_registrations(bool registering, const Json* params);
  void handle_publish(const Json& params);
  void fail(const std::string& why);
  bool send(const Json& message);
  std::int64_t send_request(const std::string& method, Json params);
  Json initialize_params() const;

  // Checks (language_server_check.cpp).
  bool sync_document(const std::string& uri, const std::string& language_id, const std::string& text, int& version,
                     bool padded = false);
  bool resend_other_documents(const std::string& uri);
  bool close_document(const std::string& uri);
  bool send_watched_changes(const std::vector<ChangedFile>& changes);
  void pull_related(const std::map<std::string, int>& opened, std::chrono::steady_clock::time_point deadline,
                    OpenedDocuments& result);
  Expected<ServerAnswer> pull_answer(const std::string& uri, const DiagnosticsSnapshot& before,
                                     std::chrono::steady_clock::time_point deadline);
  Expected<ServerAnswer> push_answer(const std::string& uri, int version, std::uint64_t sent_after,
                                     const DiagnosticsSnapshot& before, std::chrono::steady_clock::time_point deadline,
                                     Silence silence);
  Expected<Json> await_response(std::int64_t id, std::chrono::steady_clock::time_point deadline);
  Json pull_params(const std::string& uri) const;
  bool uses_pull() const {
    std::lock_guard lock(m_mutex);
    return m_pull_static || m_pull_registered;
  }

  ServerSpec m_spec;
  std::filesystem::path m_root;
  ChildProcess m_child;
  bool m_own_pid_namespace = false;  // started in the attempt's sandbox: our pid means nothing there
  std::chrono::milliseconds m_initialize_timeout;
  std::chrono::steady_clock::time_point m_initialize_deadline;
  int m_wake[2] = {-1, -1};  // a pipe that wakes the I/O thread to stop it

  mutable std::mutex m_mutex;         // guards everything below it
  std::condition_variable m_changed;  // any state, publish or response change
  ServerState m_state = ServerState::starting;
  std::string m_failure;
  std::string m_version;
  std::string m_stderr_tail;
  bool m_pull_static = false;
  bool m_pull_registered = false;
  std::set<std::string> m_pull_registrations;  // ids of textDocument/diagnostic registrations
  std::string m_pull_identifier;
  std::set<std::string> m_watch_registrations;  // ids of workspace/didChangeWatchedFiles registrations
  std::uint64_t m_changed_at = 0;  // the publish count when it was last told of a change on disk
  std::int64_t m_initialize_id = 0;
  std::int64_t m_next_id = 1;
  std::uint64_t m_sequence = 0;
  std::uint64_t m_received = 0;  // messages read from it (messages_received)
  std::map<std::string, Published> m_published;
  std::map<std::int64_t, Json> m_responses;
  std::map<std::string, OpenDocument> m_documents;
  std::optional<Priming> m_priming;  // set once by prime()
  std::int64_t m_priming_request = 0;  // its pull, when it pulls
  bool m_answered = false;
  bool m_stopping = false;            // shutdown() has begun: the priming thread ends
  std::set<std::int64_t> m_abandoned;  // requests given up on (cancelled): their late answers are dropped

  std::optional<FolderSurvey> m_disk;  // what it was last told of the disk (the checking thread only)
  std::mutex m_sync_mutex;   // one document change at a time, from its version to its message sent
  std::mutex m_write_mutex;  // one writer at a time on the server's stdin
  JsonRpcReader m_reader;    // I/O thread only
  std::thread m_io;
  std::thread m_primer;  // prime_when_ready(), joined by shutdown()
};

}  // namespace agent_run
