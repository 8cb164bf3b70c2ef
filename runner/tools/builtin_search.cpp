#include "tools/grep_search.h"

#include "tools/line_collector.h"
#include "tools/safe_open.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
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

/// ASCII-lowers `size` bytes of `in` into `out`, eight at a time.
void ascii_lower(const char* in, char* out, std::size_t size) {
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t x;
    std::memcpy(&x, in + i, 8);
    const std::uint64_t low7 = x & 0x7F7F7F7F7F7F7F7FULL;
    const std::uint64_t above_z = low7 + 0x2525252525252525ULL;     // bit 7 set where the byte is > 'Z'
    const std::uint64_t from_a = low7 + 0x3F3F3F3F3F3F3F3FULL;      // bit 7 set where the byte is >= 'A'
    const std::uint64_t upper = (from_a ^ above_z) & ~x & 0x8080808080808080ULL;
    x |= upper >> 2;
    std::memcpy(out + i, &x, 8);
  }
  for (; i < size; ++i) out[i] = (in[i] >= 'A' && in[i] <= 'Z') ? static_cast<char>(in[i] | 0x20) : in[i];
}

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

/// One file's text, and its ASCII-lowered copy when the matcher needs one.
struct FileText {
  std::string_view content;
  std::string_view lowered;
};

/// The compiled pattern. A plain literal is found with memmem (in the lowered copy when case does not
/// count); anything else runs RE2 over the whole file, after RE2's prefilter has checked that the
/// literal atoms a match needs are in the file.
class LineMatcher {
 public:
  LineMatcher(const GrepPatterns& patterns, bool case_insensitive) {
    RE2::Options options;
    options.set_log_errors(false);
    options.set_never_nl(true);
    options.set_case_sensitive(!case_insensitive);
    options.set_max_mem(256 << 20);
    m_re = std::make_unique<RE2>("(?m)" + patterns.for_re2, options);
    // Unicode folds 'k' and 's' with non-ASCII letters (KELVIN SIGN, LONG S), which ASCII lowering misses.
    const bool may_fold = case_insensitive || patterns.for_re2.find("(?") != std::string::npos;
    auto ascii_foldable = [&](std::string_view text) {
      return is_ascii(text) && (!may_fold || text.find_first_of("ksKS") == std::string_view::npos);
    };
    if (!patterns.for_re2.empty() && patterns.for_re2.find_first_of("\\.+*?()|[]{}^$") == std::string::npos &&
        (!case_insensitive || ascii_foldable(patterns.for_re2))) {
      m_literal = patterns.for_re2;
      m_literal_lowered = case_insensitive;
      if (case_insensitive) ascii_lower(m_literal.data(), m_literal.data(), m_literal.size());
      return;
    }
    int id = 0;
    if (m_filter.Add("(?m)" + patterns.for_re2, options, &id) != RE2::NoError) return;
    m_filter.Compile(&m_atoms);
    m_prefilter = !m_atoms.empty() && std::all_of(m_atoms.begin(), m_atoms.end(), ascii_foldable);
  }

  bool ok() const { return m_re->ok(); }
  const std::string& error() const { return m_re->error(); }

  /// The file's text as next_line wants it (lowered into `lowered` when needed).
  FileText prepare(std::string_view content, ByteBuffer& lowered) const {
    if (!m_prefilter && !m_literal_lowered) return FileText{content, {}};
    char* low = lowered.reserve(content.size());
    ascii_lower(content.data(), low, content.size());
    return FileText{content, std::string_view(low, content.size())};
  }

  /// False when the file cannot hold a match (a needed atom is missing).
  bool may_match(const FileText& text) const {
    if (!m_prefilter) return true;
    std::vector<int> found;
    for (std::size_t i = 0; i < m_atoms.size(); ++i) {
      if (::memmem(text.lowered.data(), text.lowered.size(), m_atoms[i].data(), m_atoms[i].size()) != nullptr) {
        found.push_back(static_cast<int>(i));
      }
    }
    std::vector<int> potential;
    m_filter.AllPotentials(found, &potential);
    return !potential.empty();
  }

  /// The next line holding a match, at or after `from` (a line start): [start, end) without the "\n".
  std::optional<std::pair<std::size_t, std::size_t>> next_line(const FileText& text, std::size_t from) const {
    std::string_view content = text.content;
    if (from > content.size()) return std::nullopt;
    std::optional<std::size_t> at = m_literal.empty() ? regex_match(content, from) : literal_match(text, from);
    if (!at) return std::nullopt;
    if (*at == content.size() && (content.empty() || content.back() == '\n')) return std::nullopt;  // past the last line
    std::size_t start = *at == 0 ? 0 : content.rfind('\n', *at - 1) + 1;
    std::size_t end = content.find('\n', *at);
    return std::make_pair(start, end == std::string_view::npos ? content.size() : end);
  }

 private:
  std::optional<std::size_t> regex_match(std::string_view content, std::size_t from) const {
    re2::StringPiece whole(content.data(), content.size());
    re2::StringPiece match;
    if (!m_re->Match(whole, from, content.size(), RE2::UNANCHORED, &match, 1)) return std::nullopt;
    return static_cast<std::size_t>(match.data() - content.data());
  }

  std::optional<std::size_t> literal_match(const FileText& text, std::size_t from) const {
    std::string_view haystack = m_literal_lowered ? text.lowered : text.content;
    const void* found = ::memmem(haystack.data() + from, haystack.size() - from, m_literal.data(), m_literal.size());
    if (found == nullptr) return std::nullopt;
    return static_cast<std::size_t>(static_cast<const char*>(found) - haystack.data());
  }

  std::unique_ptr<RE2> m_re;
  std::string m_literal;           // set when the pattern is a plain literal
  bool m_literal_lowered = false;  // the literal is searched in the lowered copy
  re2::FilteredRE2 m_filter{k_min_atom_length};
  std::vector<std::string> m_atoms;
  bool m_prefilter = false;
};

/// Searches one file's content the way the request asks; nullopt when nothing matched.
std::optional<GrepFile> search_content(std::string_view content, const LineMatcher& matcher, const GrepRequest& request,
                                       ByteBuffer& lowered) {
  if (is_binary_content(content)) return std::nullopt;
  const FileText text = matcher.prepare(content, lowered);
  if (!matcher.may_match(text)) return std::nullopt;
  GrepFile file;
  if (request.output == GrepOutput::files_with_matches) {
    if (!matcher.next_line(text, 0)) return std::nullopt;
    file.match_count = 1;
    return file;
  }
  if (request.output == GrepOutput::count) {
    for (auto line = matcher.next_line(text, 0); line; line = matcher.next_line(text, line->second + 1)) {
      ++file.match_count;
    }
    return file.match_count ? std::optional<GrepFile>(std::move(file)) : std::nullopt;
  }
  LineCollector collector(content, request.before, request.after, file.lines);
  for (auto line = matcher.next_line(text, 0); line; line = matcher.next_line(text, line->second + 1)) {
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
    auto walked = walk_files(m_scope.workspace, m_request.path, overrides, [this](const WalkedFile& file) {
      std::lock_guard lock(m_mutex);
      m_slots.push_back(Slot{std::string(file.path)});
      m_work.notify_one();
      return m_cancelled ? WalkStep::stop : WalkStep::go_on;
    });
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
    ByteBuffer lowered;
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
        for (std::size_t i = first; i < last; ++i) paths.push_back(m_slots[i].path);  // the walk may grow m_slots meanwhile
      }
      results.clear();
      for (const std::string& path : paths) results.push_back(search_file(path, content, lowered));
      std::lock_guard lock(m_mutex);
      for (std::size_t i = first; i < last; ++i) {
        m_slots[i].result = std::move(results[i - first]);
        m_slots[i].done = true;
      }
      if (m_awaited >= first && m_awaited < last) m_ready.notify_one();
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
