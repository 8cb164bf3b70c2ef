#include "diagnostics/language_server.h"

#include <algorithm>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;

}  // namespace

OpenedDocuments LanguageServer::open_related(const std::vector<RelatedDocument>& documents, TimePoint deadline) {
  OpenedDocuments result;
  if (state() != ServerState::ready) return result;
  const std::uint64_t sent_after = snapshot().sequence;
  std::map<std::string, int> opened;  // uri -> the version it went out as
  for (const RelatedDocument& document : documents) {
    const std::string uri = path_to_uri(document.path);
    {
      std::lock_guard lock(m_mutex);
      auto open = m_documents.find(uri);
      if (open != m_documents.end() && open->second.version > 0) continue;  // its list is known already
    }
    int version = 0;
    if (!sync_document(uri, document.language_id, document.text, version)) {
      fail("it stopped reading its input");
      break;
    }
    opened[uri] = version;
  }
  if (opened.empty()) return result;
  if (uses_pull()) {
    pull_related(opened, deadline, result);
    return result;
  }
  auto published = [&](const std::string& uri, int version) {
    auto found = m_published.find(uri);
    return found != m_published.end() && found->second.sequence > sent_after &&
           (!found->second.version || *found->second.version == version);
  };
  auto all_published = [&] {
    return std::all_of(opened.begin(), opened.end(), [&](const auto& entry) { return published(entry.first, entry.second); });
  };
  std::unique_lock lock(m_mutex);
  m_changed.wait_until(lock, deadline,
                       [&] { return all_published() || m_pull_registered || m_state == ServerState::failed; });
  if (!all_published() && m_pull_registered && m_state != ServerState::failed) {  // it turned to pull meanwhile
    lock.unlock();
    pull_related(opened, deadline, result);
    return result;
  }
  // Settled once nothing was published for `settle`: a server may push a syntax pass before the full list.
  while (m_state != ServerState::failed) {
    std::uint64_t last = m_sequence;
    TimePoint settle_end = std::min(deadline, SteadyClock::now() + m_spec.settle);
    if (!m_changed.wait_until(lock, settle_end, [&] { return m_sequence != last || m_state == ServerState::failed; }))
      break;
    if (SteadyClock::now() >= deadline) break;
  }
  for (const auto& [uri, version] : opened) (published(uri, version) ? result.answered : result.unanswered).insert(uri);
  return result;
}

/// Pulls the diagnostics of each opened document (the requests sent together); a request not
/// answered by `deadline` is cancelled and its document left unanswered.
void LanguageServer::pull_related(const std::map<std::string, int>& opened, TimePoint deadline,
                                  OpenedDocuments& result) {
  std::vector<std::pair<std::string, std::int64_t>> requests;
  for (const auto& [uri, version] : opened)
    requests.emplace_back(uri, send_request("textDocument/diagnostic", pull_params(uri)));
  std::vector<std::int64_t> late;
  for (const auto& [uri, id] : requests) {
    Expected<Json> answer = await_response(id, deadline);
    const Json* items = answer ? answer->find("items") : nullptr;
    if (!items || !items->is_array()) {
      if (!answer) late.push_back(id);
      result.unanswered.insert(uri);
      continue;
    }
    std::lock_guard lock(m_mutex);
    m_published[uri] = Published{items->as_array(), std::nullopt, ++m_sequence, SteadyClock::now()};
    result.answered.insert(uri);
  }
  if (!late.empty()) cancel(late);
}

}  // namespace agent_run
