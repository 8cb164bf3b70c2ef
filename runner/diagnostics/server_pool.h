#pragma once

#include "diagnostics/language_server.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace agent_run {

/// The knobs of per-edit diagnostics; the defaults are the contract, tests shorten the waits.
struct DiagnosticsSettings {
  std::chrono::milliseconds budget{2000};                       // a check not finished by then is abandoned
  std::chrono::milliseconds linter_reserve{700};                // kept for a fast linter when a warm server is slow
  std::chrono::milliseconds initialize_timeout{15000};          // a server not initialized by then failed to start
  std::chrono::milliseconds cooldown{std::chrono::minutes(5)};  // no new start after a failed one
  std::chrono::milliseconds shutdown_grace{2000};               // shutdown and exit, then the group is killed
  std::size_t max_servers = 4;                                  // live servers; the least recently used goes first
  std::chrono::milliseconds minimum_settle{0};  // >0: a push is final only after this long with no newer one
};

/// How the servers ended at shutdown.
struct PoolShutdown {
  int exited = 0;  // shut down cleanly on request
  int killed = 0;  // had to be killed
};

/// The warm language servers of a run, one per (server, project root), each started once and
/// kept until the run ends; failed starts put (server, root) on a cooldown, and so does a crash
/// of a server that had answered, once it has been restarted k_restarts times.
class ServerPool {
 public:
  explicit ServerPool(DiagnosticsSettings settings) : m_settings(settings) {}
  ~ServerPool() { shutdown_all(); }
  ServerPool(const ServerPool&) = delete;
  ServerPool& operator=(const ServerPool&) = delete;

  /// The server for `spec` in `root`: the running one, or one started now (still initializing),
  /// also in place of one that died after it had answered (`restarted`, when given, says so).
  /// An error when it is on cooldown or cannot be spawned (which starts a cooldown).
  /// A server started for an attempt runs in its `sandbox` (nullptr: none).
  Expected<LanguageServer*> acquire(const ServerSpec& spec, const std::filesystem::path& root,
                                    const std::vector<std::string>& environment,
                                    const AttemptSandbox* sandbox = nullptr, bool* restarted = nullptr);
  /// Stops a server that failed (died, garbage, no answer to initialize, stuck). One that had
  /// answered and then died (or could not be told a change) is started afresh by the next acquire,
  /// k_restarts times at most; any other starts its cooldown. True when it will be restarted.
  bool report_failure(LanguageServer* server);
  /// The live servers whose root is inside `folder`.
  std::vector<LanguageServer*> servers_under(const std::filesystem::path& folder) const;
  /// The live server of (`server`, `root`), if any, as it is: neither its failure nor its use is
  /// recorded (tests wait on it).
  LanguageServer* running(const std::string& server, const std::filesystem::path& root) const;
  /// When the cooldown of (`server`, `root`) ends, if it is on one.
  std::optional<std::chrono::steady_clock::time_point> cooldown_until(const std::string& server,
                                                                      const std::filesystem::path& root) const;
  /// Shuts down (then kills) the servers whose root is inside `folder` (a finished attempt's workspace).
  PoolShutdown release_under(const std::filesystem::path& folder);
  /// Shuts down every server: `shutdown`, `exit`, then the group is killed after the grace.
  PoolShutdown shutdown_all();
  /// How many servers are running (or starting).
  std::size_t live_servers() const { return m_servers.size(); }
  /// The knobs it was made with.
  const DiagnosticsSettings& settings() const { return m_settings; }

 private:
  using Key = std::pair<std::string, std::string>;  // (server name, root)
  /// One live server and when it was last used.
  struct Entry {
    std::unique_ptr<LanguageServer> server;
    std::uint64_t last_used = 0;
  };
  void evict_least_recently_used();
  static bool is_under(const std::string& root, const std::filesystem::path& folder);
  PoolShutdown stop(std::vector<std::unique_ptr<LanguageServer>> servers);

  DiagnosticsSettings m_settings;
  std::map<Key, Entry> m_servers;
  /// A server not tried again until `until`, and why, as the notes say it ("failed to start",
  /// "stopped working"): the same words whichever edit meets the cooldown first.
  struct Cooldown {
    std::chrono::steady_clock::time_point until;
    std::string why;
  };
  std::map<Key, Cooldown> m_cooldowns;
  std::map<Key, int> m_restarts;  // how often (server, root) was started again after dying
  std::uint64_t m_uses = 0;
};

}  // namespace agent_run
