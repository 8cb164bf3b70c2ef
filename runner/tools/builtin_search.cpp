#include "tools/grep_search.h"

#include "tools/line_collector.h"
#include "tools/safe_open.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace agent_run {

namespace {

constexpr int k_min_atom_length = 3;

/// A growable byte buffer that is not zero-filled on growth (a file is read into it).
class ByteBuffer {
 public:
  char* reserve(std::size_t size) {
    if (size + 1 > m_capacity) {
      m_capacity = std::max(size + 1, m_capacity * 2);
      m_data = std::make_unique<char[]>(m_capacity);
    }
    return m_data.get();
  }
  char* data() const { return m_data.get(); }
  std::size_t capacity() const { return m_capacity; }

 private:
  std::unique_ptr<char[]> m_data;
  std::size_t m_capacity = 0;
};

/// The compiled pattern: RE2 over a whole file, and the literal atoms (RE2's prefilter) a file must
/// contain for the pattern to possibly match in it.
class LineMatcher {
 public:
  LineMatcher(const GrepPatterns& patterns, bool case_insensitive) {
    RE2::Options options;
    options.set_log_errors(false);
    options.set_never_nl(true);
    options.set_case_sensitive(!case_insensitive);
    options.set_max_mem(256 << 20);
    m_re = std::make_unique<RE2>("(?m)" + patterns.for_re2, options);
    int id = 0;
    if (m_filter.Add("(?m)" + patterns.for_re2, options, &id) != RE2::NoError) return;
    m_filter.Compile(&m_atoms);
    // The atoms are lower case and must be found case-insensitively; only ASCII atoms can be found that
    // way in an ASCII-lowered copy. A pattern without atoms (all too short, or none) is not prefiltered.
    m_prefilter = !m_atoms.empty() && std::all_of(m_atoms.begin(), m_atoms.end(), [](const std::string& atom) {
      return std::all_of(atom.begin(), atom.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    });
  }

  bool ok() const { return m_re->ok(); }
  const std::string& error() const { return m_re->error(); }

  /// False when the file cannot hold a match (none of the needed atoms occurs in it).
  bool may_match(std::string_view content, ByteBuffer& lowered) const {
    if (!m_prefilter) return true;
    char* low = lowered.reserve(content.size());
    for (std::size_t i = 0; i < content.size(); ++i) {
      char c = content[i];
      low[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c;
    }
    std::vector<int> found;
    for (std::size_t i = 0; i < m_atoms.size(); ++i) {
      if (::memmem(low, content.size(), m_atoms[i].data(), m_atoms[i].size()) != nullptr) {
        found.push_back(static_cast<int>(i));
      }
    }
    std::vector<int> potential;
    m_filter.AllPotentials(found, &potential);
    return !potential.empty();
  }

  /// The next line holding a match, at or after `from` (a line start): [start, end) without the "\n".
  std::optional<std::pair<std::size_t, std::size_t>> next_line(std::string_view content, std::size_t from) const {
    if (from > content.size()) return std::nullopt;
    re2::StringPiece text(content.data(), content.size());
    re2::StringPiece match;
    if (!m_re->Match(text, from, content.size(), RE2::UNANCHORED, &match, 1)) return std::nullopt;
    std::size_t at = static_cast<std::size_t>(match.data() - content.data());
    if (at == content.size() && (content.empty() || content.back() == '\n')) return std::nullopt;  // past the last line
    std::size_t start = at == 0 ? 0 : content.rfind('\n', at - 1) + 1;
    std::size_t end = content.find('\n', at);
    return std::make_pair(start, end == std::string_view::npos ? content.size() : end);
  }

 private:
  std::unique_ptr<RE2> m_re;
  re2::FilteredRE2 m_filter{k_min_atom_length};
  std::vector<std::string> m_atoms;
  bool m_prefilter = false;
};

/// Searches one file's content the way the request asks; nullopt when nothing matched.
std::optional<GrepFile> search_content(std::string_view content, const LineMatcher& matcher, const GrepRequest& request,
                                       ByteBuffer& lowered) {
  if (is_binary_content(content) || !matcher.may_match(content, lowered)) return std::nullopt;
  GrepFile file;
  if (request.output == GrepOutput::files_with_matches) {
    if (!matcher.next_line(content, 0)) return std::nullopt;
    file.match_count = 1;
    return file;
  }
  if (request.output == GrepOutput::count) {
    for (auto line = matcher.next_line(content, 0); line; line = matcher.next_line(content, line->second + 1)) {
      ++file.match_count;
    }
    return file.match_count ? std::optional<GrepFile>(std::move(file)) : std::nullopt;
  }
  LineCollector collector(content, request.before, request.after, file.lines);
  for (auto line = matcher.next_line(content, 0); line; line = matcher.next_line(content, line->second + 1)) {
    collector.add_match(line->first, line->second);
    // The match after max_results is the last one that matters: the answer stops there.
    if (++file.match_count > request.max_results) return file;
  }
  if (file.match_count == 0) return std::nullopt;
  collector.finish();
  return file;
}

/// One file the walk found and, once a worker has searched it, what it held.
struct Slot {
  std::string path;
  bool done = false;
  std::optional<GrepFile> result;
};

/// The walk on one thread, the search on every core, the answers handed on in walk order.
class ParallelSearch {
 public:
  ParallelSearch(const SearchScope& scope, const GrepRequest& request, const LineMatcher& matcher, int root_fd)
      : m_scope(scope), m_request(request), m_matcher(matcher), m_root_fd(root_fd) {}

  Expected<void> run(const IgnoreRules& overrides, const GrepSink& sink) {
    std::thread walker([&] { walk(overrides); });
    std::vector<std::thread> workers;
    unsigned count = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    for (unsigned i = 0; i < count; ++i) workers.emplace_back([this] { work(); });
    Expected<void> handed_on = hand_on(sink);
    cancel();
    walker.join();
    for (std::thread& worker : workers) worker.join();
    if (!handed_on) return handed_on;
    return m_walk_result;
  }

 private:
  void walk(const IgnoreRules& overrides) {
    auto walked = walk_files(m_scope.workspace, m_request.path, overrides, [this](const WalkedFile& file) {
      std::lock_guard lock(m_mutex);
      m_slots.push_back(Slot{std::string(file.path)});
      m_changed.notify_all();
      return m_cancelled ? WalkStep::stop : WalkStep::go_on;
    });
    std::lock_guard lock(m_mutex);
    m_walk_result = std::move(walked);
    m_walk_done = true;
    m_changed.notify_all();
  }

  void work() {
    ByteBuffer content;
    ByteBuffer lowered;
    for (;;) {
      Slot* slot = nullptr;
      {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_cancelled || m_next_job < m_slots.size() || m_walk_done; });
        if (m_cancelled || m_next_job >= m_slots.size()) return;
        slot = &m_slots[m_next_job++];
      }
      std::optional<GrepFile> result = search_file(slot->path, content, lowered);
      std::lock_guard lock(m_mutex);
      slot->result = std::move(result);
      slot->done = true;
      m_changed.notify_all();
    }
  }

  std::optional<GrepFile> search_file(const std::string& path, ByteBuffer& buffer, ByteBuffer& lowered) const {
    auto file = open_beneath(m_root_fd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (!file) return std::nullopt;
    struct stat info {};
    if (::fstat(file->get(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
    std::size_t size = 0;
    buffer.reserve(static_cast<std::size_t>(info.st_size));
    for (;;) {
      if (size == buffer.capacity() - 1) {
        std::string keep(buffer.data(), size);
        std::memcpy(buffer.reserve(size * 2 + 4096), keep.data(), size);
      }
      ssize_t n = ::read(file->get(), buffer.data() + size, buffer.capacity() - 1 - size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      size += static_cast<std::size_t>(n);
    }
    auto result = search_content(std::string_view(buffer.data(), size), m_matcher, m_request, lowered);
    if (result) result->path = path;
    return result;
  }

  /// Hands the results to `sink` in walk order until it has enough, the walk is over, or time is up.
  Expected<void> hand_on(const GrepSink& sink) {
    for (std::size_t next = 0;; ++next) {
      std::optional<GrepFile> result;
      {
        std::unique_lock lock(m_mutex);
        bool ready = m_changed.wait_until(lock, m_scope.deadline, [&] {
          return (next < m_slots.size() && m_slots[next].done) || (m_walk_done && next >= m_slots.size());
        });
        if (!ready) return make_error("the search timed out");
        if (next >= m_slots.size()) return {};
        result = std::move(m_slots[next].result);
        m_slots[next].result.reset();
      }
      if (result && sink(std::move(*result)) == WalkStep::stop) return {};
    }
  }

  void cancel() {
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    m_changed.notify_all();
  }

  const SearchScope& m_scope;
  const GrepRequest& m_request;
  const LineMatcher& m_matcher;
  int m_root_fd;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Slot> m_slots;
  std::size_t m_next_job = 0;
  bool m_walk_done = false;
  bool m_cancelled = false;
  Expected<void> m_walk_result;
};

}  // namespace

Expected<void> search_builtin(const SearchScope& scope, const GrepRequest& request, const GrepPatterns& patterns,
                              const GrepSink& sink) {
  LineMatcher matcher(patterns, request.case_insensitive);
  if (!matcher.ok()) return make_error("invalid pattern '" + request.pattern + "': " + matcher.error());
  auto overrides = search_overrides(request.globs);
  if (!overrides) return overrides.error();
  auto root = open_workspace(scope.workspace);
  if (!root) return root.error();
  ParallelSearch search(scope, request, matcher, root->get());
  return search.run(*overrides, sink);
}

}  // namespace agent_run
