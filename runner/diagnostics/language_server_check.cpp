#include "diagnostics/language_server.h"

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;

bool is_header(const std::string& uri) {
  std::string extension = std::filesystem::path(uri).extension().string();
  return extension == ".h" || extension == ".hh" || extension == ".hpp" || extension == ".hxx";
}

Json notification(const std::string& method, Json params) {
  return Json::object().set("jsonrpc", "2.0").set("method", method).set("params", std::move(params));
}

}  // namespace

std::optional<std::vector<Json>> LanguageServer::known_diagnostics(const std::filesystem::path& path,
                                                                   const std::string& text) const {
  std::string uri = path_to_uri(path);
  std::lock_guard lock(m_mutex);
  auto document = m_documents.find(uri);
  auto published = m_published.find(uri);
  if (document == m_documents.end() || document->second.text != text || published == m_published.end()) {
    return std::nullopt;
  }
  // Only a list made after that text went out and after the last change on disk it was told of, and
  // for that version when the server says which: an older list may be about files as they no longer are.
  const Published& list = published->second;
  if (list.sequence <= std::max(document->second.sent_sequence, m_changed_at)) return std::nullopt;
  if (list.version && *list.version != document->second.version) return std::nullopt;
  return list.items;
}

DiagnosticsSnapshot LanguageServer::snapshot() const {
  std::lock_guard lock(m_mutex);
  DiagnosticsSnapshot snapshot;
  for (const auto& [uri, published] : m_published) snapshot.lists[uri] = published.items;
  snapshot.sequence = m_sequence;
  return snapshot;
}

Expected<ServerAnswer> LanguageServer::check(const std::filesystem::path& path, const std::string& language_id,
                                             const std::string& text, TimePoint deadline,
                                             const DiagnosticsSnapshot* since, Silence silence) {
  const std::string uri = path_to_uri(path);
  if (state() != ServerState::ready) return make_error(failure().empty() ? "not ready" : failure());
  DiagnosticsSnapshot before = since ? *since : snapshot();
  std::uint64_t sent_after = snapshot().sequence;
  int version = 0;
  if (!sync_document(uri, language_id, text, version)) return make_error(failure());
  // After a header changed, a server like clangd rebuilds the open files including it only when they
  // change: resend them.
  bool refresh_includers = since != nullptr && is_header(uri) && m_spec.header_settle.count() > 0;
  if (refresh_includers && !resend_other_documents(uri)) return make_error(failure());
  if (uses_pull()) return pull_answer(uri, before, deadline);
  return push_answer(uri, version, sent_after, before, deadline, silence);
}

/// didOpen the first time, then didChange with the full text and didSave; false when the server is gone.
bool LanguageServer::sync_document(const std::string& uri, const std::string& language_id, const std::string& text,
                                   int& version, bool padded) {
  std::lock_guard in_order(m_sync_mutex);  // a version goes out before the next one is given
  bool is_open = false;
  {
    std::lock_guard lock(m_mutex);
    OpenDocument& document = m_documents[uri];
    is_open = document.version > 0;
    version = ++document.version;
    document.text = text;
    document.padded = padded;
    document.sent_sequence = m_sequence;
  }
  const std::string sent = padded ? text + "\n" : text;
  Json identifier = Json::object().set("uri", uri).set("version", version);
  if (!is_open) {
    identifier.set("languageId", language_id).set("text", sent);
    return send(notification("textDocument/didOpen", Json::object().set("textDocument", std::move(identifier))));
  }
  Json change = Json::object().set("text", sent);
  Json params =
      Json::object().set("textDocument", std::move(identifier)).set("contentChanges", Json(Json::Array{change}));
  if (!send(notification("textDocument/didChange", std::move(params)))) return false;
  Json saved = Json::object().set("textDocument", Json::object().set("uri", uri)).set("text", sent);
  return send(notification("textDocument/didSave", std::move(saved)));
}

/// Sends every other open document again, with one trailing newline more or less than before (an
/// unchanged text is not rebuilt), so that a server that does not rebuild the files including a
/// changed header by itself (clangd) rebuilds them and publishes their problems.
bool LanguageServer::resend_other_documents(const std::string& uri) {
  std::vector<std::pair<std::string, OpenDocument>> others;
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [open_uri, document] : m_documents) {
      if (open_uri != uri) others.emplace_back(open_uri, document);
    }
  }
  for (const auto& [other, document] : others) {
    int version = 0;
    if (!sync_document(other, "", document.text, version, !document.padded)) return false;
  }
  return true;
}

Json LanguageServer::pull_params(const std::string& uri) const {
  Json params = Json::object().set("textDocument", Json::object().set("uri", uri));
  std::lock_guard lock(m_mutex);
  if (!m_pull_identifier.empty()) params.set("identifier", m_pull_identifier);
  return params;
}

Expected<Json> LanguageServer::await_response(std::int64_t id, TimePoint deadline) {
  std::unique_lock lock(m_mutex);
  m_changed.wait_until(lock, deadline, [&] { return m_responses.count(id) || m_state == ServerState::failed; });
  auto found = m_responses.find(id);
  if (found == m_responses.end()) {
    if (m_state == ServerState::failed) return make_error(m_failure);
    return make_error("no answer in time");
  }
  Json answer = std::move(found->second);
  m_responses.erase(found);
  if (const Json* error = answer.find("error")) return make_error("it answered an error: " + error->dump());
  const Json* result = answer.find("result");
  return result ? *result : Json();
}

/// Pulls the document, and every other open document for neighbours (requests sent together).
Expected<ServerAnswer> LanguageServer::pull_answer(const std::string& uri, const DiagnosticsSnapshot& before,
                                                   TimePoint deadline) {
  std::vector<std::string> others;
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [open_uri, document] : m_documents) {
      if (open_uri != uri) others.push_back(open_uri);
    }
  }
  std::int64_t id = send_request("textDocument/diagnostic", pull_params(uri));
  std::vector<std::int64_t> other_ids;
  for (const std::string& other : others)
    other_ids.push_back(send_request("textDocument/diagnostic", pull_params(other)));
  Expected<Json> result = await_response(id, deadline);
  if (!result) {
    other_ids.push_back(id);
    cancel(other_ids);
    return result.error();
  }
  ServerAnswer answer;
  if (const Json* items = result->find("items"); items && items->is_array()) answer.items = items->as_array();
  std::vector<std::optional<std::vector<Json>>> other_items;
  for (std::int64_t other_id : other_ids) {
    Expected<Json> other = await_response(other_id, deadline);
    const Json* items = other ? other->find("items") : nullptr;
    other_items.push_back(items && items->is_array() ? std::optional(items->as_array()) : std::nullopt);
  }
  std::lock_guard lock(m_mutex);
  m_answered = true;
  m_published[uri] = Published{answer.items, std::nullopt, ++m_sequence, SteadyClock::now()};
  for (std::size_t i = 0; i < others.size(); ++i) {
    if (!other_items[i]) continue;
    auto earlier = before.lists.find(others[i]);
    if (earlier != before.lists.end() && earlier->second != *other_items[i]) {
      answer.neighbours_before.push_back(DocumentDiagnostics{others[i], earlier->second});
      answer.neighbours_after.push_back(DocumentDiagnostics{others[i], *other_items[i]});
    }
    m_published[others[i]] = Published{*other_items[i], std::nullopt, ++m_sequence, SteadyClock::now()};
  }
  return answer;
}

/// Waits for a publish of this version (or, without a version, one that came after the change),
/// then for the publishes to settle; neighbours are the other documents whose lists changed. A
/// server that is silent when a clean file stays clean (quiet_when_clean) counts as having answered
/// once it published anything after the change, or when its quiet window passes.
Expected<ServerAnswer> LanguageServer::push_answer(const std::string& uri, int version, std::uint64_t sent_after,
                                                   const DiagnosticsSnapshot& before, TimePoint deadline,
                                                   Silence silence) {
  const TimePoint sent = SteadyClock::now();
  auto fresh = [&] {
    auto found = m_published.find(uri);
    if (found == m_published.end() || found->second.sequence <= sent_after) return false;
    return !found->second.version || *found->second.version == version;
  };
  std::unique_lock lock(m_mutex);
  auto earlier = before.lists.find(uri);
  bool quiet = m_spec.quiet_when_clean.count() > 0 && silence == Silence::means_clean &&
               (earlier == before.lists.end() || earlier->second.empty());
  TimePoint first_wait = quiet ? std::min(deadline, sent + m_spec.quiet_when_clean) : deadline;
  m_changed.wait_until(lock, first_wait, [&] {
    return fresh() || (quiet && m_sequence > sent_after) || m_pull_registered || m_state == ServerState::failed;
  });
  if (m_state == ServerState::failed) return make_error(m_failure);
  if (!fresh() && m_pull_registered) {  // it registered pull while we waited (pyright does, then stops pushing)
    lock.unlock();
    return pull_answer(uri, before, deadline);
  }
  if (!fresh() && !quiet) return make_error("no diagnostics in time");
  std::chrono::milliseconds settle =
      is_header(uri) && m_spec.header_settle.count() > 0 ? m_spec.header_settle : m_spec.settle;
  while (m_sequence > sent_after) {  // settled once nothing at all (file or neighbour) was published for `settle`
    std::uint64_t last = m_sequence;
    TimePoint settle_end = std::min(deadline, SteadyClock::now() + settle);
    bool newer =
        m_changed.wait_until(lock, settle_end, [&] { return m_sequence != last || m_state == ServerState::failed; });
    if (!newer || SteadyClock::now() >= deadline || m_state == ServerState::failed) break;
  }
  if (!fresh()) m_published[uri] = Published{{}, version, ++m_sequence, SteadyClock::now()};  // silent: still clean
  m_answered = true;
  ServerAnswer answer;
  answer.items = m_published[uri].items;
  for (const auto& [other, published] : m_published) {
    if (other == uri || published.sequence <= before.sequence) continue;
    auto open = m_documents.find(other);  // a list for an older version of an open neighbour is stale
    if (published.version && open != m_documents.end() && *published.version != open->second.version) continue;
    auto old = before.lists.find(other);
    std::vector<Json> old_items = old == before.lists.end() ? std::vector<Json>{} : old->second;
    if (old_items == published.items) continue;
    answer.neighbours_before.push_back(DocumentDiagnostics{other, old_items});
    answer.neighbours_after.push_back(DocumentDiagnostics{other, published.items});
  }
  return answer;
}

}  // namespace agent_run
