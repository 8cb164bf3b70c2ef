#include "search/grep_search.h"

#include "base/safe_open.h"
#include "search/line_collector.h"
#include "search/line_matcher.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace agent_run {

namespace {

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

/// Searches one file's content the way the request asks; nullopt when nothing matched.
std::optional<GrepFile> search_content(std::string_view content, const LineMatcher& matcher,
                                       const GrepRequest& request) {
  if (is_binary_content(content) || !matcher.may_match(content)) return std::nullopt;
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

/// The walk on one thread, the search on every core, the answers handed on in walk order. Workers take
/// runs of consecutive files, and wake the hand-on thread only when the file it waits for is done.
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
    {
      std::lock_guard lock(m_mutex);
      m_cancelled = true;
    }
    m_work.notify_all();
    walker.join();
    for (std::thread& worker : workers) worker.join();
    if (!handed_on) return handed_on;
    return m_walk_result;
  }

 private:
  static constexpr std::size_t k_run_length = 16;

  void walk(const IgnoreRules& overrides) {
    auto walked = walk_files(
        m_scope.workspace, m_request.path, overrides,
        [this](const WalkedFile& file) {
          std::lock_guard lock(m_mutex);
          m_slots.push_back(Slot{std::string(file.path)});
          m_work.notify_one();
          return m_cancelled ? WalkStep::stop : WalkStep::go_on;
        },
        m_scope.hidden);
    {
      std::lock_guard lock(m_mutex);
      m_walk_result = std::move(walked);
      m_walk_done = true;
    }
    m_work.notify_all();
    m_ready.notify_all();
  }

  void work() {
    ByteBuffer content;
    std::vector<std::string> paths;
    std::vector<std::optional<GrepFile>> results;
    for (;;) {
      std::size_t first = 0;
      std::size_t last = 0;
      paths.clear();
      {
        std::unique_lock lock(m_mutex);
        m_work.wait(lock, [&] { return m_cancelled || m_next_job < m_slots.size() || m_walk_done; });
        if (m_cancelled || m_next_job >= m_slots.size()) return;
        first = m_next_job;
        last = std::min(m_slots.size(), first + k_run_length);
        m_next_job = last;
        for (std::size_t i = first; i < last; ++i)
          paths.push_back(m_slots[i].path);  // the walk may grow m_slots meanwhile
      }
      results.clear();
      for (const std::string& path : paths) results.push_back(search_file(path, content));
      std::lock_guard lock(m_mutex);
      for (std::size_t i = first; i < last; ++i) {
        m_slots[i].result = std::move(results[i - first]);
        m_slots[i].done = true;
      }
      if (m_awaited >= first && m_awaited < last) m_ready.notify_one();
    }
  }

  std::optional<GrepFile> search_file(const std::string& path, ByteBuffer& buffer) const {
    auto file = open_beneath(m_root_fd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (!file) return std::nullopt;
    struct stat info {};
    if (::fstat(file->get(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
    if (m_scope.hidden && m_scope.hidden->rule_of_file &&
        !m_scope.hidden->rule_of_file(info).empty()) {
      return std::nullopt;  // swapped for a hidden file since the walk listed it
    }
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
    auto result = search_content(std::string_view(buffer.data(), size), m_matcher, m_request);
    if (result) result->path = path;
    return result;
  }

  /// Hands the results to `sink` in walk order until it has enough, the walk is over, or time is up.
  Expected<void> hand_on(const GrepSink& sink) {
    for (std::size_t next = 0;; ++next) {
      std::optional<GrepFile> result;
      {
        std::unique_lock lock(m_mutex);
        m_awaited = next;
        bool ready = m_ready.wait_until(lock, m_scope.deadline, [&] {
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

  const SearchScope& m_scope;
  const GrepRequest& m_request;
  const LineMatcher& m_matcher;
  int m_root_fd;
  std::mutex m_mutex;
  std::condition_variable m_work;   // a job is there, or the walk or the search is over
  std::condition_variable m_ready;  // the awaited slot is done, or the walk is over
  std::deque<Slot> m_slots;
  std::size_t m_next_job = 0;
  std::size_t m_awaited = 0;
  bool m_walk_done = false;
  bool m_cancelled = false;
  Expected<void> m_walk_result;
};

}  // namespace

Expected<void> search_builtin(const SearchScope& scope, const GrepRequest& request, const GrepPatterns& patterns,
                              const GrepSink& sink) {
  auto matcher = LineMatcher::compile(patterns, request.case_insensitive);
  if (!matcher) return make_error("invalid pattern '" + request.pattern + "': " + matcher.error().message);
  auto overrides = search_overrides(request.globs);
  if (!overrides) return overrides.error();
  auto root = open_workspace(scope.workspace);
  if (!root) return root.error();
  ParallelSearch search(scope, request, *matcher, root->get());
  return search.run(*overrides, sink);
}

}  // namespace agent_run
