#include "search/newest_first.h"

#include "base/safe_open.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <system_error>

namespace agent_run {

namespace {

/// Files of one folder per batch at most: small enough that both threads stay busy to the end.
constexpr std::size_t k_batch_files = 128;
/// The first files' times are read as the walk meets them: a small tree is done before a thread would
/// have started.
constexpr std::size_t k_inline_files = 1024;
/// The helper is woken when this many files wait: waking a sleeping thread on another core costs more
/// than the stats of one folder (on a virtual machine, tens of microseconds).
constexpr std::size_t k_wake_files = 512;

/// The modification time in nanoseconds, 0 when the file cannot be read (it went away since the walk).
std::int64_t modified_ns(int folder_fd, const char* name) {
  struct statx info {};
  if (::statx(folder_fd, name, AT_SYMLINK_NOFOLLOW, STATX_MTIME, &info) == 0 && (info.stx_mask & STATX_MTIME) != 0) {
    return static_cast<std::int64_t>(info.stx_mtime.tv_sec) * 1000000000 + info.stx_mtime.tv_nsec;
  }
  struct stat plain {};
  if (::fstatat(folder_fd, name, &plain, AT_SYMLINK_NOFOLLOW) != 0) return 0;
  return static_cast<std::int64_t>(plain.st_mtim.tv_sec) * 1000000000 + plain.st_mtim.tv_nsec;
}

/// True when a core this process may run on has nothing to run right now (the kernel's count of
/// runnable tasks, /proc/loadavg's fourth field, includes this thread).
bool core_is_idle() {
  cpu_set_t cores;
  if (::sched_getaffinity(0, sizeof cores, &cores) != 0 || CPU_COUNT(&cores) < 2) return false;
  std::FILE* loadavg = std::fopen("/proc/loadavg", "re");
  if (loadavg == nullptr) return false;
  double averages[3];
  long running = 0;
  const int read = std::fscanf(loadavg, "%lf %lf %lf %ld/", &averages[0], &averages[1], &averages[2], &running);
  std::fclose(loadavg);
  return read == 4 && running < CPU_COUNT(&cores);
}

}  // namespace

/// A run of consecutive files of one folder whose times are read together, through the batch's own
/// duplicate of the walk's descriptor (the walk closes its own when it leaves the folder).
struct StatBatch {
  UniqueFd folder;  // not open when it could not be duplicated: then each time is read as the file is added
  int walk_fd = -1;
  std::size_t first = 0;  // the index of its first file
  std::size_t count = 0;
  std::string names;  // each name followed by '\0'
  std::vector<std::int64_t> times;

  void read() {
    times.reserve(count);
    for (const char* name = names.data(); name < names.data() + names.size(); name += std::strlen(name) + 1) {
      times.push_back(modified_ns(folder.get(), name));
    }
    folder = UniqueFd();
    std::string().swap(names);
  }
};

NewestFirst::NewestFirst(StatHelper helper) : m_helper_use(helper) {}

NewestFirst::~NewestFirst() {
  {
    std::lock_guard lock(m_mutex);
    m_waiting.clear();
    m_ended = true;
  }
  m_queued.notify_all();
  if (m_helper.joinable()) m_helper.join();
}

void NewestFirst::add(const WalkedFile& file) {
  m_paths.append(file.path);
  m_ends.push_back(m_paths.size());
  if (m_ends.size() == k_inline_files + 1) {
    m_batching =
        m_helper_use == StatHelper::always || (m_helper_use == StatHelper::when_a_core_is_idle && core_is_idle());
  }
  std::string_view folder = file.path.substr(0, file.path.size() - std::min(file.path.size(), std::strlen(file.name)));
  if (!m_open || m_open->count == k_batch_files || m_open->walk_fd != file.folder_fd || folder != m_open_folder) {
    hand_over();
    m_open = std::make_unique<StatBatch>();
    if (m_batching) m_open->folder = UniqueFd(::fcntl(file.folder_fd, F_DUPFD_CLOEXEC, 0));
    m_open->walk_fd = file.folder_fd;
    m_open->first = m_ends.size() - 1;
    m_open_folder.assign(folder);
  }
  ++m_open->count;
  if (m_open->folder.is_open()) {
    m_open->names.append(file.name).push_back('\0');
  } else {
    m_open->times.push_back(modified_ns(file.folder_fd, file.name));
  }
}

std::string NewestFirst::list(std::size_t count) {
  read_times();
  const std::vector<std::int64_t>& times = m_times;
  std::vector<std::size_t> order(size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto newer = [&](std::size_t a, std::size_t b) {
    return times[a] != times[b] ? times[a] > times[b] : path(a) < path(b);
  };
  count = std::min(count, order.size());
  if (count < order.size()) {
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(), newer);
  } else {
    std::sort(order.begin(), order.end(), newer);
  }
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < count; ++i) bytes += path(order[i]).size() + 1;
  std::string out;
  out.reserve(bytes);
  for (std::size_t i = 0; i < count; ++i) out.append(path(order[i])).push_back('\n');
  return out;
}

/// Queues the open batch for whichever thread is free; wakes the helper (started the first time) when
/// enough files wait.
void NewestFirst::hand_over() {
  if (!m_open) return;
  std::unique_ptr<StatBatch> batch = std::move(m_open);
  std::lock_guard lock(m_mutex);
  if (!batch->folder.is_open()) {
    m_read.push_back(std::move(batch));
    return;
  }
  m_unclaimed += batch->count;
  m_waiting.push_back(std::move(batch));
  if (m_unclaimed < k_wake_files) return;
  m_unclaimed = 0;
  if (!m_helper.joinable() && !m_helper_tried) {
    m_helper_tried = true;
    try {
      m_helper = std::thread([this] { help(); });
    } catch (const std::system_error&) {
      // No thread to be had: the walk's thread reads every batch at the end.
    }
  }
  m_wake = true;
  m_queued.notify_one();
}

/// The helper thread: reads batches while any wait, then sleeps until woken; ends with the walk.
void NewestFirst::help() {
  std::unique_lock lock(m_mutex);
  for (;;) {
    m_queued.wait(lock, [this] { return m_ended || m_wake; });
    m_wake = false;
    while (!m_waiting.empty()) read_next(lock);
    if (m_ended) return;
  }
}

/// Reads the first waiting batch with the mutex released (`lock` holds it before and after).
void NewestFirst::read_next(std::unique_lock<std::mutex>& lock) {
  std::unique_ptr<StatBatch> batch = std::move(m_waiting.front());
  m_waiting.pop_front();
  ++m_reading;
  lock.unlock();
  batch->read();
  lock.lock();
  m_read.push_back(std::move(batch));
  if (--m_reading == 0 && m_waiting.empty()) m_idle.notify_all();
}

/// On the walk's thread, once it has ended: reads what is still waiting beside the helper, then waits for it.
void NewestFirst::read_times() {
  hand_over();
  std::unique_lock lock(m_mutex);
  m_ended = true;
  m_queued.notify_all();
  while (!m_waiting.empty()) read_next(lock);
  m_idle.wait(lock, [this] { return m_reading == 0; });
  lock.unlock();
  if (m_helper.joinable()) m_helper.join();
  m_times.resize(size(), 0);
  for (const auto& batch : m_read) {
    std::copy(batch->times.begin(), batch->times.end(), m_times.begin() + static_cast<std::ptrdiff_t>(batch->first));
  }
  m_read.clear();
}

std::string_view NewestFirst::path(std::size_t index) const {
  const std::size_t start = index == 0 ? 0 : m_ends[index - 1];
  return std::string_view(m_paths).substr(start, m_ends[index] - start);
}

}  // namespace agent_run
