#include "diagnostics/server_pool.h"

#include <algorithm>
#include <thread>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds k_failed_grace{50};
constexpr std::chrono::milliseconds k_evicted_grace{200};
// Restarts of a (server, root) that died after it had answered, before it goes on cooldown instead.
constexpr int k_restarts = 3;

}  // namespace

Expected<LanguageServer*> ServerPool::acquire(const ServerSpec& spec, const std::filesystem::path& root,
                                              const std::vector<std::string>& environment,
                                              const AttemptSandbox* sandbox, bool* restarted) {
  Key key{spec.name, root.string()};
  if (auto until = cooldown_until(spec.name, root)) {
    auto left = std::chrono::duration_cast<std::chrono::seconds>(*until - SteadyClock::now()).count();
    return make_error(spec.name + " " + m_cooldowns.at(key).why + "; not retried for " + std::to_string(left) + "s");
  }
  auto found = m_servers.find(key);
  if (found != m_servers.end() && found->second.server->state() == ServerState::failed) {
    bool restart = report_failure(found->second.server.get());
    found = m_servers.end();
    if (restarted) *restarted = restart;
    if (!restart)
      return make_error(spec.name + " stopped working; not retried for " +
                      std::to_string(std::chrono::duration_cast<std::chrono::seconds>(m_settings.cooldown).count()) +
                      "s");
  }
  if (found != m_servers.end()) {
    found->second.last_used = ++m_uses;
    return found->second.server.get();
  }
  if (m_servers.size() >= m_settings.max_servers) evict_least_recently_used();
  ServerSpec settled = spec;
  settled.settle = std::max(spec.settle, m_settings.minimum_settle);
  auto started = LanguageServer::start(settled, root, environment, m_settings.initialize_timeout, sandbox);
  if (!started) {
    m_cooldowns[key] = Cooldown{SteadyClock::now() + m_settings.cooldown, "failed to start"};
    return make_error(spec.name + " failed to start (" + started.error().message + ")");
  }
  LanguageServer* server = started->get();
  m_servers[key] = Entry{std::move(*started), ++m_uses};
  return server;
}

bool ServerPool::report_failure(LanguageServer* server) {
  for (auto it = m_servers.begin(); it != m_servers.end(); ++it) {
    if (it->second.server.get() != server) continue;
    // It worked and then died: whatever it held is lost, so a fresh one reads the disk as it is now.
    bool restart = server->state() == ServerState::failed && server->answered() && m_restarts[it->first] < k_restarts;
    if (restart) {
      ++m_restarts[it->first];
    } else {
      m_cooldowns[it->first] = Cooldown{SteadyClock::now() + m_settings.cooldown, "stopped working"};
    }
    std::unique_ptr<LanguageServer> failed = std::move(it->second.server);
    m_servers.erase(it);
    failed->shutdown(k_failed_grace);  // it is broken: no two-second grace inside an edit's budget
    return restart;
  }
  return false;
}

bool ServerPool::is_under(const std::string& root, const std::filesystem::path& folder) {
  auto relative = std::filesystem::path(root).lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

std::vector<LanguageServer*> ServerPool::servers_under(const std::filesystem::path& folder) const {
  std::vector<LanguageServer*> servers;
  for (const auto& [key, entry] : m_servers) {
    if (is_under(key.second, folder)) servers.push_back(entry.server.get());
  }
  return servers;
}

LanguageServer* ServerPool::running(const std::string& server, const std::filesystem::path& root) const {
  auto found = m_servers.find(Key{server, root.string()});
  return found == m_servers.end() ? nullptr : found->second.server.get();
}

std::optional<SteadyClock::time_point> ServerPool::cooldown_until(const std::string& server,
                                                                  const std::filesystem::path& root) const {
  auto found = m_cooldowns.find(Key{server, root.string()});
  if (found == m_cooldowns.end() || found->second.until <= SteadyClock::now()) return std::nullopt;
  return found->second.until;
}

void ServerPool::evict_least_recently_used() {
  auto oldest = m_servers.begin();
  for (auto it = m_servers.begin(); it != m_servers.end(); ++it) {
    if (it->second.last_used < oldest->second.last_used) oldest = it;
  }
  if (oldest == m_servers.end()) return;
  std::unique_ptr<LanguageServer> evicted = std::move(oldest->second.server);
  m_servers.erase(oldest);
  evicted->shutdown(k_evicted_grace);  // inside an edit's check: a short grace, then it is killed
}

PoolShutdown ServerPool::release_under(const std::filesystem::path& folder) {
  std::vector<std::unique_ptr<LanguageServer>> released;
  for (auto it = m_servers.begin(); it != m_servers.end();) {
    if (is_under(it->first.second, folder)) {
      released.push_back(std::move(it->second.server));
      it = m_servers.erase(it);
    } else {
      ++it;
    }
  }
  return stop(std::move(released));
}

PoolShutdown ServerPool::shutdown_all() {
  std::vector<std::unique_ptr<LanguageServer>> all;
  for (auto& [key, entry] : m_servers) all.push_back(std::move(entry.server));
  m_servers.clear();
  return stop(std::move(all));
}

/// Shuts the servers down in parallel, so a run's end waits one grace at most, not one per server.
PoolShutdown ServerPool::stop(std::vector<std::unique_ptr<LanguageServer>> servers) {
  std::vector<int> exited(servers.size(), 0);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < servers.size(); ++i) {
    threads.emplace_back([&, i] { exited[i] = servers[i]->shutdown(m_settings.shutdown_grace) ? 1 : 0; });
  }
  for (std::thread& thread : threads) thread.join();
  PoolShutdown result;
  for (int clean : exited) (clean ? result.exited : result.killed) += 1;
  return result;
}

}  // namespace agent_run
