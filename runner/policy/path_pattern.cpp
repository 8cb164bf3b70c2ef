#include "policy/path_pattern.h"

#include "base/paths.h"
#include "policy/kernel_path.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> split_segments(std::string_view text) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('/', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) segments.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return segments;
}

/// What is wrong with one glob segment: an unterminated `[` or a trailing backslash.
std::optional<std::string> segment_problem(std::string_view segment) {
  for (std::size_t i = 0; i < segment.size(); ++i) {
    if (segment[i] == '\\') {
      if (i + 1 == segment.size()) return "ends with a backslash";
      ++i;
    } else if (segment[i] == '[') {
      std::size_t close = segment.find(']', i + 2);
      if (close == std::string_view::npos) return "has a '[' without its ']'";
      i = close;
    }
  }
  if (segment == "." || segment == "..")
    return "has a '" + std::string(segment) + "' segment, which means nothing in a pattern";
  return std::nullopt;
}

/// What is wrong with the `{a,b}` groups of a pattern: one that holds a '/' (a group alternates
/// within one path segment).
std::optional<std::string> group_problem(std::string_view body) {
  bool in_group = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\') ++i;
    else if (body[i] == '{') in_group = true;
    else if (body[i] == '}') in_group = false;
    else if (body[i] == '/' && in_group) return "has a '/' inside '{...}': alternatives stay within one path segment";
  }
  return std::nullopt;
}

/// True when segments `pattern` match `path` or a leading part of it (a folder holding it): dp
/// over (pattern prefix, path prefix).
bool segments_match(const std::vector<std::optional<GlobPattern>>& pattern, const std::vector<std::string>& path) {
  const std::size_t p_count = pattern.size();
  const std::size_t n = path.size();
  std::vector<char> row(n + 1, 0);
  row[0] = 1;
  for (std::size_t p = 0; p < p_count; ++p) {
    std::vector<char> next(n + 1, 0);
    if (!pattern[p]) {
      char reachable = 0;
      for (std::size_t j = 0; j <= n; ++j) next[j] = reachable = reachable || row[j];
    } else {
      for (std::size_t j = 1; j <= n; ++j) {
        next[j] = row[j - 1] && pattern[p]->matches(path[j - 1]);
      }
    }
    row.swap(next);
  }
  if (n == 0) return row[0] != 0;
  return std::any_of(row.begin() + 1, row.end(), [](char reached) { return reached != 0; });
}

CanonicalPath view_of(const fs::path& root, const fs::path& path) {
  CanonicalPath view;
  view.absolute = path.generic_string();
  while (view.absolute.size() > 1 && view.absolute.back() == '/') view.absolute.pop_back();
  view.inside = is_at_or_under(path, root);
  if (view.inside) {
    fs::path relative = path.lexically_relative(root);
    view.relative = relative.empty() || relative == "." ? "." : relative.generic_string();
    while (view.relative.size() > 1 && view.relative.back() == '/') view.relative.pop_back();
  }
  return view;
}

/// True when `glob` matches one segment of `path` ('/'-separated; "." is the workspace: none), as
/// split_segments would give them, without making them.
bool any_segment_matches(const GlobPattern& glob, std::string_view path) {
  if (path == ".") return false;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start && glob.matches(path.substr(start, end - start))) return true;
    start = end + 1;
  }
  return false;
}

std::vector<std::string> relative_segments(const CanonicalPath& path) {
  return path.relative == "." ? std::vector<std::string>{} : split_segments(path.relative);
}

}  // namespace

Expected<PathPattern> compile_path_pattern(std::string_view text) {
  PathPattern pattern;
  pattern.text = std::string(text);
  if (text.empty()) return make_error("a path pattern must not be empty");
  if (text[0] == '!') return make_error("negated patterns ('!') are not supported: write a deny rule instead");
  if (text[0] == '~')
    return make_error("'~' is not expanded: name the folder inside the workspace, or an absolute path as //PATH");
  std::string_view body = text;
  if (body.substr(0, 2) == "//") {
    pattern.anchor = PathPattern::Anchor::absolute;
    body.remove_prefix(2);
  } else if (body[0] == '/') {
    return make_error("a leading '/' is ambiguous: write '" + std::string(body.substr(1)) +
                      "' for the workspace's, or '/" + std::string(body) + "' for the absolute path");
  }
  while (!body.empty() && body.back() == '/') body.remove_suffix(1);
  if (auto problem = group_problem(body)) return make_error("the pattern " + *problem);
  const std::vector<std::string> segments = split_segments(body);
  if (segments.empty()) return make_error("a path pattern must name something");
  for (const std::string& segment : segments) {
    if (auto problem = segment_problem(segment)) return make_error("the pattern " + *problem);
    if (segment == "**") {
      pattern.segments.emplace_back();
      continue;
    }
    Expected<GlobPattern> glob = GlobPattern::compile(segment);
    if (!glob) return glob.error();
    pattern.segments.emplace_back(std::move(*glob));
  }
  if (pattern.anchor != PathPattern::Anchor::absolute && body.find('/') == std::string_view::npos) {
    pattern.anchor = PathPattern::Anchor::any_depth;
  }
  return pattern;
}

std::vector<CanonicalPath> canonical_paths(const fs::path& workspace, std::string_view text) {
  if (text.empty() || text.find('\0') != std::string_view::npos || text.size() > k_max_path_bytes) return {};
  const bool virtual_root = workspace.empty();
  std::error_code ec;
  fs::path root = virtual_root ? fs::path("/workspace") : fs::weakly_canonical(fs::absolute(workspace, ec), ec);
  if (ec) root = fs::absolute(workspace).lexically_normal();
  const fs::path written(text);
  const fs::path lexical = (written.is_absolute() ? written : root / written).lexically_normal();
  std::vector<CanonicalPath> views{view_of(root, lexical)};
  std::string magic = magic_prefix(lexical);
  if (!virtual_root) {
    KernelPath resolved = kernel_resolve(root, text);
    if (magic.empty()) magic = resolved.magic;
    CanonicalPath kernel_view = view_of(root, resolved.resolved.lexically_normal());
    if (kernel_view.absolute != views.front().absolute) views.push_back(std::move(kernel_view));
  }
  for (CanonicalPath& view : views) view.magic = magic;
  return views;
}

bool path_pattern_matches(const PathPattern& pattern, const CanonicalPath& path) {
  switch (pattern.anchor) {
    case PathPattern::Anchor::any_depth: {
      if (!pattern.segments[0]) return true;  // `**` alone: every path, the workspace itself included
      return any_segment_matches(*pattern.segments[0], path.inside ? path.relative : path.absolute);
    }
    case PathPattern::Anchor::workspace:
      if (path.inside) return segments_match(pattern.segments, relative_segments(path));
      return !pattern.segments[0] && segments_match(pattern.segments, split_segments(path.absolute));
    case PathPattern::Anchor::absolute: return segments_match(pattern.segments, split_segments(path.absolute));
  }
  return false;
}

}  // namespace agent_run
