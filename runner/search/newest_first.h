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

/// The files a walk finds, listed newest first (ties by path, as bytes). Their modification times are
/// read (statx, the time alone): the first thousand as the walk meets them, the rest on a helper thread
/// while the walk goes on and on the walk's thread too once it has ended (a stat per file is most of a
/// large glob's cost).
class NewestFirst {
 public:
  NewestFirst();
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
