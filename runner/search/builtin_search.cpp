#include "search/grep_search.h"

#include "base/safe_open.h"
#include "search/chunked_search.h"
#include "search/line_matcher.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace agent_run {

namespace {

/// One file the walk found and, once a worker has searched it, what it held.
struct Slot {
  std::string path;
  bool done = false;
  std::optional<GrepFile> result;
};

/// The walk on one thread, the search on every core, the answers handed on in walk order. Workers take
/// runs of consecutive files, and wake the hand-on thread only when the file it waits for is done. The
/// walk stays at most k_max_queued files ahead of the hand-on, so memory does not grow with the tree.
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
    m_room.notify_all();
    walker.join();
    for (std::thread& worker : workers) worker.join();
    if (!handed_on) return handed_on;
    return m_walk_result;
  }

 private:
  static constexpr std::size_t k_run_length = 16;
  static constexpr std::size_t k_max_queued = 4096;

  Slot& slot(std::size_t index) { return m_slots[index - m_first_slot]; }
  std::size_t slot_end() const { return m_first_slot + m_slots.size(); }

  void walk(const IgnoreRules& overrides) {
    auto walked = walk_files(
        m_scope.workspace, m_request.path, overrides,
        [this](const WalkedFile& file) {
          std::unique_lock lock(m_mutex);
          m_room.wait(lock, [this] { return m_cancelled || m_slots.size() < k_max_queued; });
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
    ChunkedSearch search(m_matcher, m_request);
    std::vector<std::string> paths;
    std::vector<std::optional<GrepFile>> results;
    for (;;) {
      std::size_t first = 0;
      std::size_t last = 0;
      paths.clear();
      {
        std::unique_lock lock(m_mutex);
        m_work.wait(lock, [&] { return m_cancelled || m_next_job < slot_end() || m_walk_done; });
        if (m_cancelled || m_next_job >= slot_end()) return;
        first = m_next_job;
        last = std::min(slot_end(), first + k_run_length);
        m_next_job = last;
        for (std::size_t i = first; i < last; ++i)
          paths.push_back(slot(i).path);  // the walk may grow m_slots meanwhile
      }
      results.clear();
      for (const std::string& path : paths) results.push_back(search_file(path, search));
      std::lock_guard lock(m_mutex);
      for (std::size_t i = first; i < last; ++i) {  // not handed on yet, so still in m_slots
        slot(i).result = std::move(results[i - first]);
        slot(i).done = true;
      }
      if (m_awaited >= first && m_awaited < last) m_ready.notify_one();
    }
  }

  std::optional<GrepFile> search_file(const std::string& path, ChunkedSearch& search) const {
    auto file = open_beneath(m_root_fd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (!file) return std::nullopt;
    struct stat info {};
    if (::fstat(file->get(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
    if (m_scope.hidden && m_scope.hidden->rule_of_file && !m_scope.hidden->rule_of_file(info).empty()) {
      return std::nullopt;  // swapped for a hidden file since the walk listed it
    }
    auto result = search.search(file->get());
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
          return (next < slot_end() && slot(next).done) || (m_walk_done && next >= slot_end());
        });
        if (!ready) return make_error("the search timed out");
        if (next >= slot_end()) return {};
        result = std::move(slot(next).result);
        m_slots.pop_front();  // the first slot is always `next`: handed on in order
        ++m_first_slot;
      }
      m_room.notify_one();
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
  std::condition_variable m_room;   // the walk may queue another file
  std::deque<Slot> m_slots;         // the files not handed on yet, from index m_first_slot on
  std::size_t m_first_slot = 0;
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
