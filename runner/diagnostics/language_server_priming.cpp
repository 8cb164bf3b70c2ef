#include "diagnostics/language_server.h"

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

}  // namespace

void LanguageServer::prime(const std::filesystem::path& path, const std::string& language_id,
                           const std::string& text) {
  {
    std::lock_guard lock(m_mutex);
    if (m_priming || m_answered || m_stopping || m_state == ServerState::failed) return;
    m_priming = Priming{path_to_uri(path), language_id, text};
  }
  m_primer = std::thread([this] { prime_when_ready(); });
}

bool LanguageServer::answered() const {
  std::lock_guard lock(m_mutex);
  return m_answered;
}

bool LanguageServer::warming() const {
  std::lock_guard lock(m_mutex);
  return m_priming && !m_answered && m_state != ServerState::failed;
}

bool LanguageServer::wait_answered(SteadyClock::time_point deadline) {
  std::unique_lock lock(m_mutex);
  m_changed.wait_until(lock, deadline, [&] { return m_answered || m_state == ServerState::failed; });
  return m_answered;
}

/// The priming thread: waits for initialize, sends the first document, then waits for the server's
/// first answer: a publish (push), the answer to a pull when it offers pull (taken by the I/O
/// thread), or, for a server silent about clean files, its quiet window passing. No edit waits on
/// it; a server that gives no first answer within the initialize timeout again has failed to start.
/// It ends at once when the server stops.
void LanguageServer::prime_when_ready() {
  Priming first;
  std::uint64_t sent_after = 0;
  {
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_state != ServerState::starting || m_stopping; });
    if (m_state != ServerState::ready || m_stopping) return;
    first = *m_priming;
    sent_after = m_sequence;
  }
  int version = 0;
  if (!sync_document(first.uri, first.language_id, first.text, version)) return;
  const SteadyClock::time_point sent = SteadyClock::now();
  std::unique_lock lock(m_mutex);
  m_priming->version = version;
  auto published = [&] {
    auto found = m_published.find(first.uri);
    return found != m_published.end() && found->second.sequence > sent_after;
  };
  auto shown = [&] {
    return published() || m_pull_static || m_pull_registered || m_stopping || m_state == ServerState::failed;
  };
  // A first answer takes at most as long again as initialize may: past that, the server failed to start.
  const SteadyClock::time_point give_up = sent + m_initialize_timeout;
  auto no_first_answer = [&] {
    lock.unlock();
    fail("it gave no first answer within " + std::to_string(m_initialize_timeout.count() / 1000) + "s");
  };
  if (m_spec.quiet_when_clean.count() > 0) {
    if (!m_changed.wait_until(lock, std::min(give_up, sent + m_spec.quiet_when_clean), shown)) {
      m_answered = true;  // nothing to say about a clean file, and it says nothing: that is its answer
      m_changed.notify_all();
      return;
    }
  } else if (!m_changed.wait_until(lock, give_up, shown)) {
    return no_first_answer();
  }
  if (published() || m_stopping || m_state == ServerState::failed) return;
  // It pulls: ask, and let the I/O thread take the answer (take_priming_answer).
  m_priming_request = m_next_id++;
  Json params = Json::object().set("textDocument", Json::object().set("uri", first.uri));
  if (!m_pull_identifier.empty()) params.set("identifier", m_pull_identifier);
  Json request = Json::object()
                     .set("jsonrpc", "2.0")
                     .set("id", m_priming_request)
                     .set("method", "textDocument/diagnostic")
                     .set("params", std::move(params));
  lock.unlock();
  if (!send(request)) return fail("it stopped reading its input");
  lock.lock();
  auto over = [&] { return m_answered || m_stopping || m_state == ServerState::failed; };
  if (!m_changed.wait_until(lock, give_up, over)) no_first_answer();
}

/// The answer to the priming pull (the I/O thread, lock held): the server has answered, and its
/// items are the document's diagnostics when it still holds the version primed.
void LanguageServer::take_priming_answer(const Json& message) {
  m_answered = true;
  const Json* result = message.find("result");
  const Json* items = result && result->is_object() ? result->find("items") : nullptr;
  auto document = m_documents.find(m_priming->uri);
  if (!items || !items->is_array() || document == m_documents.end() || document->second.version != m_priming->version)
    return;
  m_published[m_priming->uri] = Published{items->as_array(), std::nullopt, ++m_sequence, SteadyClock::now()};
}

/// Tells the server to drop requests nobody waits for any more (a check abandoned at its deadline),
/// so that they do not hold up the next edit's; their late answers are dropped on arrival.
void LanguageServer::cancel(const std::vector<std::int64_t>& ids) {
  for (std::int64_t id : ids) {
    {
      std::lock_guard lock(m_mutex);
      if (m_responses.erase(id)) continue;  // it did answer, just too late
      m_abandoned.insert(id);
    }
    Json params = Json::object().set("id", id);
    send(Json::object().set("jsonrpc", "2.0").set("method", "$/cancelRequest").set("params", std::move(params)));
  }
}

}  // namespace agent_run
