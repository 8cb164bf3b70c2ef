#pragma once

#include "search/file_walk.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace agent_run {

struct StatBatch;

/// Whether NewestFirst reads times on a second thread beyond the first thousand files.
enum class StatHelper { when_a_core_is_idle, always, never };

/// The files a walk finds, listed newest first (ties by path, as bytes). Their modification times are
/// read (statx, the time alone) as the walk meets them; past the first thousand files, when a core is
/// idle, in batches on a helper thread while the walk goes on, and on the walk's thread too once it has
/// ended. A stat per file is most of a large glob's cost; on a busy machine the second thread only adds
/// system time (the two contend for the same folders), so it is not started there.
class NewestFirst {
 public:
  explicit NewestFirst(StatHelper helper = StatHelper::when_a_core_is_idle);
  ~NewestFirst();
  NewestFirst(const NewestFirst&) = delete;
  NewestFirst& operator=(const NewestFirst&) = delete;

  /// Keeps `file` (called from walk_files' visit, on the walk's thread).
  void add(const WalkedFile& file);
  std::size_t size() const { return m_ends.size(); }
  /// The first `count` paths newest first, each followed by '\n'; waits for every time first.
  std::string list(std::size_t count);

 private:
  void hand_over();
  void help();
  void read_next(std::unique_lock<std::mutex>& lock);
  void read_times();
  std::string_view path(std::size_t index) const;

  std::string m_paths;                // every path, one after another
  std::vector<std::size_t> m_ends;    // where each path ends in m_paths
  std::unique_ptr<StatBatch> m_open;  // the run of files of one folder being added
  std::string m_open_folder;
  std::vector<std::int64_t> m_times;  // each file's, once read_times has gathered them
  StatHelper m_helper_use;
  bool m_batching = false;  // past the first thousand files, with a helper to hand batches to

  std::mutex m_mutex;
  std::condition_variable m_queued;  // a batch is waiting, or the walk has ended
  std::condition_variable m_idle;    // nothing is waiting or being read
  std::deque<std::unique_ptr<StatBatch>> m_waiting;
  std::vector<std::unique_ptr<StatBatch>> m_read;
  std::size_t m_reading = 0;
  std::size_t m_unclaimed = 0;  // files queued since the helper was last woken
  bool m_wake = false;
  bool m_ended = false;
  bool m_helper_tried = false;
  std::thread m_helper;  // started with the first batch
};

}  // namespace agent_run
