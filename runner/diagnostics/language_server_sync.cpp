#include "base/files.h"
#include "diagnostics/language_server.h"

#include <sys/stat.h>

namespace agent_run {

namespace {

// An open document whose file grew past this is closed rather than sent (a generated blob).
constexpr std::uintmax_t k_largest_document = 8 * 1024 * 1024;

Json notification(const std::string& method, Json params) {
  return Json::object().set("jsonrpc", "2.0").set("method", method).set("params", std::move(params));
}

/// The text of an open document's file now: nullopt when it is gone, not a regular file, hidden or too big.
std::optional<std::string> text_on_disk(const std::filesystem::path& path, const HiddenPath& hidden) {
  struct stat file {};
  if (::stat(path.c_str(), &file) != 0 || !S_ISREG(file.st_mode)) return std::nullopt;
  if (static_cast<std::uintmax_t>(file.st_size) > k_largest_document || (hidden && hidden(path, file)))
    return std::nullopt;
  auto text = read_file(path);
  return text ? std::optional<std::string>(std::move(*text)) : std::nullopt;
}

}  // namespace

bool LanguageServer::catch_up(const FolderSurvey& disk, const std::filesystem::path& skip, const HiddenPath& hidden) {
  if (state() != ServerState::ready) return state() != ServerState::failed;
  std::vector<std::pair<std::string, std::string>> open;  // uri, text it holds
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [uri, document] : m_documents) open.emplace_back(uri, document.text);
  }
  const std::string skipped = skip.empty() ? std::string() : path_to_uri(skip);
  bool told = false;
  for (const auto& [uri, held] : open) {
    if (uri == skipped) continue;
    std::optional<std::string> now = text_on_disk(uri_to_path(uri), hidden);
    if (now && *now == held) continue;
    int version = 0;
    if (now ? !sync_document(uri, "", *now, version) : !close_document(uri)) {
      fail("it could not be told of a change on disk");
      return false;
    }
    told = true;
  }
  std::vector<ChangedFile> changes = m_disk ? changes_between(*m_disk, disk) : std::vector<ChangedFile>{};
  std::erase_if(changes, [&](const ChangedFile& change) { return change.path == skip; });  // sent as a document
  bool watching = false;
  {
    std::lock_guard lock(m_mutex);
    watching = !m_watch_registrations.empty();
  }
  if (watching && !changes.empty()) {
    if (!send_watched_changes(changes)) {
      fail("it could not be told of the files changed on disk");
      return false;
    }
    told = true;
  }
  m_disk = disk;
  if (told) {
    std::lock_guard lock(m_mutex);
    m_changed_at = m_sequence;
  }
  return true;
}

/// didClose, and the document is forgotten: the server reads the file from disk again, if it is there.
bool LanguageServer::close_document(const std::string& uri) {
  std::lock_guard in_order(m_sync_mutex);
  {
    std::lock_guard lock(m_mutex);
    m_documents.erase(uri);
  }
  Json identifier = Json::object().set("uri", uri);
  return send(notification("textDocument/didClose", Json::object().set("textDocument", std::move(identifier))));
}

bool LanguageServer::send_watched_changes(const std::vector<ChangedFile>& changes) {
  Json events = Json::array();
  for (const ChangedFile& change : changes) {
    events.as_array().push_back(
        Json::object().set("uri", path_to_uri(change.path)).set("type", static_cast<int>(change.change)));
  }
  return send(notification("workspace/didChangeWatchedFiles", Json::object().set("changes", std::move(events))));
}

}  // namespace agent_run
