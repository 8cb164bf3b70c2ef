#include "tools/unified_diff.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <vector>

namespace agent_run {

namespace {

constexpr std::size_t k_context_lines = 3;
constexpr long k_max_edit_distance = 1000;  // beyond it, the changed middle is shown as one replacement

std::vector<std::string_view> split_keeping_newlines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

enum class Op { keep, remove, add };

/// The shortest edit script from `a` to `b` (Myers' O(ND) algorithm), as one Op per line; nullopt when
/// it needs more than k_max_edit_distance edits.
std::optional<std::vector<Op>> shortest_edit(const std::vector<int>& a, const std::vector<int>& b) {
  const long n = static_cast<long>(a.size());
  const long m = static_cast<long>(b.size());
  const long max = std::min(n + m, k_max_edit_distance);
  std::vector<long> v(2 * static_cast<std::size_t>(max) + 2, 0);
  std::vector<std::vector<long>> trace;
  auto at = [&](long k) -> long& { return v[static_cast<std::size_t>(k + max + 1)]; };
  for (long d = 0; d <= max; ++d) {
    trace.push_back(v);
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? at(k + 1) : at(k - 1) + 1;
      long y = x - k;
      while (x < n && y < m && a[static_cast<std::size_t>(x)] == b[static_cast<std::size_t>(y)]) ++x, ++y;
      at(k) = x;
      if (x >= n && y >= m) {
        std::vector<Op> ops;
        for (long back = d; back > 0; --back) {
          v = trace[static_cast<std::size_t>(back)];
          long k_here = x - y;
          bool down = k_here == -back || (k_here != back && at(k_here - 1) < at(k_here + 1));
          long k_prev = down ? k_here + 1 : k_here - 1;
          long x_prev = at(k_prev);
          long y_prev = x_prev - k_prev;
          while (x > x_prev + (down ? 0 : 1) && y > y_prev + (down ? 1 : 0)) ops.push_back(Op::keep), --x, --y;
          ops.push_back(down ? Op::add : Op::remove);
          x = x_prev;
          y = y_prev;
        }
        while (x > 0 && y > 0) ops.push_back(Op::keep), --x, --y;
        std::reverse(ops.begin(), ops.end());
        return ops;
      }
    }
  }
  return std::nullopt;
}

void append_line(std::string& out, char marker, std::string_view line) {
  out += marker;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

std::string range(std::size_t first_index, std::size_t count) {
  std::size_t start = count == 0 ? first_index : first_index + 1;
  return std::to_string(start) + (count == 1 ? "" : "," + std::to_string(count));
}

/// The script for the whole files: equal prefix and suffix kept, the middle diffed.
std::vector<Op> edit_script(const std::vector<std::string_view>& old_lines,
                            const std::vector<std::string_view>& new_lines) {
  std::size_t prefix = 0;
  while (prefix < old_lines.size() && prefix < new_lines.size() && old_lines[prefix] == new_lines[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < old_lines.size() - prefix && suffix < new_lines.size() - prefix &&
         old_lines[old_lines.size() - 1 - suffix] == new_lines[new_lines.size() - 1 - suffix]) {
    ++suffix;
  }
  std::unordered_map<std::string_view, int> ids;
  auto ids_of = [&](const std::vector<std::string_view>& lines) {
    std::vector<int> out;
    for (std::size_t i = prefix; i < lines.size() - suffix; ++i)
      out.push_back(ids.emplace(lines[i], static_cast<int>(ids.size())).first->second);
    return out;
  };
  const std::vector<int> a = ids_of(old_lines);
  const std::vector<int> b = ids_of(new_lines);
  std::vector<Op> ops(prefix, Op::keep);
  if (auto middle = shortest_edit(a, b)) {
    ops.insert(ops.end(), middle->begin(), middle->end());
  } else {
    ops.insert(ops.end(), a.size(), Op::remove);
    ops.insert(ops.end(), b.size(), Op::add);
  }
  ops.insert(ops.end(), suffix, Op::keep);
  return ops;
}

}  // namespace

FileDiff diff_file(std::string_view path, std::string_view before, std::string_view after) {
  FileDiff diff;
  if (before == after) return diff;
  const auto old_lines = split_keeping_newlines(before);
  const auto new_lines = split_keeping_newlines(after);
  const std::vector<Op> ops = edit_script(old_lines, new_lines);
  diff.text = "--- a/" + std::string(path) + "\n+++ b/" + std::string(path) + "\n";
  std::size_t i = 0;
  std::size_t old_at = 0;  // old line index at ops[i]
  std::size_t new_at = 0;
  while (i < ops.size()) {
    if (ops[i] == Op::keep) {
      ++i, ++old_at, ++new_at;
      continue;
    }
    // A hunk: from up to 3 kept lines before this change to 3 after the last change within 6 kept lines.
    std::size_t lead = 0;
    while (lead < k_context_lines && lead < i && ops[i - lead - 1] == Op::keep) ++lead;
    std::size_t end = i;
    for (std::size_t keeps = 0; end < ops.size() && keeps <= 2 * k_context_lines; ++end) {
      keeps = ops[end] == Op::keep ? keeps + 1 : 0;
      if (keeps > 2 * k_context_lines) break;
    }
    while (end > i && ops[end - 1] == Op::keep) --end;  // the hunk's changes end here
    std::size_t trail = 0;
    while (trail < k_context_lines && end + trail < ops.size() && ops[end + trail] == Op::keep) ++trail;
    std::size_t old_start = old_at - lead;
    std::size_t new_start = new_at - lead;
    std::string body;
    std::size_t old_count = 0;
    std::size_t new_count = 0;
    std::size_t o = old_start;
    std::size_t n = new_start;
    for (std::size_t j = i - lead; j < end + trail; ++j) {
      if (ops[j] == Op::keep) append_line(body, ' ', old_lines[o++]), ++n, ++old_count, ++new_count;
      else if (ops[j] == Op::remove) append_line(body, '-', old_lines[o++]), ++old_count, ++diff.lines_removed;
      else append_line(body, '+', new_lines[n++]), ++new_count, ++diff.lines_added;
    }
    diff.text += "@@ -" + range(old_start, old_count) + " +" + range(new_start, new_count) + " @@\n" + body;
    old_at = o;
    new_at = n;
    i = end + trail;
  }
  return diff;
}

}  // namespace agent_run
