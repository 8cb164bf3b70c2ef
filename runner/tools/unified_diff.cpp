#include "tools/unified_diff.h"

#include <algorithm>
#include <vector>

namespace agent_run {

namespace {

constexpr std::size_t k_context_lines = 3;

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

void append_line(std::string& out, char marker, std::string_view line) {
  out += marker;
  out += line;
  if (line.empty() || line.back() != '\n') {
    out += "\n\\ No newline at end of file\n";
  }
}

std::string range(std::size_t first_index, std::size_t count) {
  std::size_t start = count == 0 ? first_index : first_index + 1;
  return std::to_string(start) + (count == 1 ? "" : "," + std::to_string(count));
}

}  // namespace

FileDiff diff_file(std::string_view path, std::string_view before, std::string_view after) {
  FileDiff diff;
  if (before == after) return diff;
  const auto old_lines = split_keeping_newlines(before);
  const auto new_lines = split_keeping_newlines(after);
  std::size_t prefix = 0;
  while (prefix < old_lines.size() && prefix < new_lines.size() && old_lines[prefix] == new_lines[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < old_lines.size() - prefix && suffix < new_lines.size() - prefix &&
         old_lines[old_lines.size() - 1 - suffix] == new_lines[new_lines.size() - 1 - suffix]) {
    ++suffix;
  }
  const std::size_t removed_end = old_lines.size() - suffix;
  const std::size_t added_end = new_lines.size() - suffix;
  const std::size_t context_start = prefix - std::min(prefix, k_context_lines);
  const std::size_t context_after = std::min(suffix, k_context_lines);
  diff.lines_removed = static_cast<int>(removed_end - prefix);
  diff.lines_added = static_cast<int>(added_end - prefix);

  std::string& out = diff.text;
  out += "--- a/" + std::string(path) + "\n+++ b/" + std::string(path) + "\n";
  const std::size_t old_count = removed_end + context_after - context_start;
  const std::size_t new_count = added_end + context_after - context_start;
  out += "@@ -" + range(context_start, old_count) + " +" + range(context_start, new_count) + " @@\n";
  for (std::size_t i = context_start; i < prefix; ++i) append_line(out, ' ', old_lines[i]);
  for (std::size_t i = prefix; i < removed_end; ++i) append_line(out, '-', old_lines[i]);
  for (std::size_t i = prefix; i < added_end; ++i) append_line(out, '+', new_lines[i]);
  for (std::size_t i = removed_end; i < removed_end + context_after; ++i) append_line(out, ' ', old_lines[i]);
  return diff;
}

}  // namespace agent_run
