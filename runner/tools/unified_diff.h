#pragma once

#include <string>
#include <string_view>

namespace agent_run {

/// A unified diff of `before` and `after` for one file, with three lines of context, computed from
/// a line diff (Myers) in hunks, as `diff -u` shows it.
struct FileDiff {
  std::string text;  // empty when nothing changed
  int lines_added = 0;
  int lines_removed = 0;
};

FileDiff diff_file(std::string_view path, std::string_view before, std::string_view after);

}  // namespace agent_run
