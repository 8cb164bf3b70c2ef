#include "diagnostics/server_pool.h"

#include <algorithm>
#include <thread>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds k_failed_grace{50};
constexpr std::chrono::milliseconds k_evicted_grace{200};

}  // namespace

Expected<LanguageServer*> ServerPool::acquire(const ServerSpec& spec, const std::filesystem::path& root,
                                              const std::vector<std::string>& environment) {
  Key key{spec.name, root.string()};
  if (auto until = cooldown_until(spec.name, root)) {
    auto left = std::chrono::duration_cast<std::chrono::seconds>(*until - SteadyClock::now()).count();
    return make_error(spec.name + " " + m_cooldowns.at(key).why + "; not retried for " + std::to_string(left) + "s");
  }
  auto found = m_servers.find(key);
  if (found != m_servers.end() && found->second.server->state() == ServerState::failed) {
    report_failure(found->second.server.get());
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
  auto started = LanguageServer::start(settled, root, environment, m_settings.initialize_timeout);
  if (!started) {
    m_cooldowns[key] = Cooldown{SteadyClock::now() + m_settings.cooldown, "failed to start"};
    return make_error(spec.name + " failed to start (" + started.error().message + ")");
  }
  LanguageServer* server = started->get();
  m_servers[key] = Entry{std::move(*started), ++m_uses};
  return server;
}

void ServerPool::report_failure(LanguageServer* server) {
  for (auto it = m_servers.begin(); it != m_servers.end(); ++it) {
    if (it->second.server.get() != server) continue;
    m_cooldowns[it->first] = Cooldown{SteadyClock::now() + m_settings.cooldown, "stopped working"};
    std::unique_ptr<LanguageServer> failed = std::move(it->second.server);
    m_servers.erase(it);
    failed->shutdown(k_failed_grace);  // it is broken: no two-second grace inside an edit's budget
    return;
  }
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
    auto relative = std::filesystem::path(it->first.second).lexically_relative(folder);
    if (!relative.empty() && *relative.begin() != "..") {
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
