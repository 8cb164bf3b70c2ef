#include "policy/path_pattern.h"

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
  if (segment == "." || segment == "..") return "has a '" + std::string(segment) + "' segment, which means nothing in a pattern";
  return std::nullopt;
}

/// Matches one bracket expression at `glob[g]` ('[' included) against `c`; advances `g` past it.
bool class_matches(std::string_view glob, std::size_t& g, char c) {
  std::size_t i = g + 1;
  bool negated = i < glob.size() && (glob[i] == '!' || glob[i] == '^');
  if (negated) ++i;
  bool matched = false;
  bool first = true;
  for (; i < glob.size() && (glob[i] != ']' || first); first = false) {
    char low = glob[i];
    if (low == '\\' && i + 1 < glob.size()) low = glob[++i];
    char high = low;
    if (i + 2 < glob.size() && glob[i + 1] == '-' && glob[i + 2] != ']') {
      high = glob[i + 2];
      if (high == '\\' && i + 3 < glob.size()) high = glob[++i + 2];
      i += 2;
    }
    if (c >= low && c <= high) matched = true;
    ++i;
  }
  g = std::min(i + 1, glob.size());
  return matched != negated;
}

/// One glob step at `glob[g]` against `c`: true and `g` advanced when it matches.
bool step_matches(std::string_view glob, std::size_t& g, char c) {
  if (glob[g] == '?') {
    ++g;
    return true;
  }
  if (glob[g] == '[' && glob.find(']', g + 2) != std::string_view::npos) return class_matches(glob, g, c);
  if (glob[g] == '\\' && g + 1 < glob.size()) ++g;
  if (glob[g] != c) return false;
  ++g;
  return true;
}

/// True when segments `pattern` match `path` or a leading part of it (a folder holding it): dp
/// over (pattern prefix, path prefix).
bool segments_match(const std::vector<std::string>& pattern, const std::vector<std::string>& path) {
  const std::size_t p_count = pattern.size();
  const std::size_t n = path.size();
  std::vector<char> row(n + 1, 0);
  row[0] = 1;
  for (std::size_t p = 0; p < p_count; ++p) {
    std::vector<char> next(n + 1, 0);
    if (pattern[p] == "**") {
      char reachable = 0;
      for (std::size_t j = 0; j <= n; ++j) next[j] = reachable = reachable || row[j];
    } else {
      for (std::size_t j = 1; j <= n; ++j) {
        next[j] = row[j - 1] && segment_glob_matches(pattern[p], path[j - 1]);
      }
    }
    row.swap(next);
  }
  if (n == 0) return row[0] != 0;
  return std::any_of(row.begin() + 1, row.end(), [](char reached) { return reached != 0; });
}

bool is_inside(const fs::path& root, const fs::path& candidate) {
  auto [root_end, candidate_at] = std::mismatch(root.begin(), root.end(), candidate.begin(), candidate.end());
  return root_end == root.end();
}

CanonicalPath view_of(const fs::path& root, const fs::path& path) {
  CanonicalPath view;
  view.absolute = path.generic_string();
  while (view.absolute.size() > 1 && view.absolute.back() == '/') view.absolute.pop_back();
  view.inside = is_inside(root, path);
  if (view.inside) {
    fs::path relative = path.lexically_relative(root);
    view.relative = relative.empty() || relative == "." ? "." : relative.generic_string();
    while (view.relative.size() > 1 && view.relative.back() == '/') view.relative.pop_back();
  }
  return view;
}

std::vector<std::string> relative_segments(const CanonicalPath& path) {
  return path.relative == "." ? std::vector<std::string>{} : split_segments(path.relative);
}

}  // namespace

bool segment_glob_matches(std::string_view glob, std::string_view name) {
  std::size_t g = 0;
  std::size_t n = 0;
  std::optional<std::size_t> star_g;
  std::size_t star_n = 0;
  while (n < name.size()) {
    if (g < glob.size() && glob[g] == '*') {
      while (g < glob.size() && glob[g] == '*') ++g;
      star_g = g;
      star_n = n;
    } else if (std::size_t at = g; g < glob.size() && step_matches(glob, at, name[n])) {
      g = at;
      ++n;
    } else if (star_g) {
      g = *star_g;
      n = ++star_n;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

Expected<PathPattern> compile_path_pattern(std::string_view text) {
  PathPattern pattern;
  pattern.text = std::string(text);
  if (text.empty()) return make_error("a path pattern must not be empty");
  if (text[0] == '!') return make_error("negated patterns ('!') are not supported: write a deny rule instead");
  if (text[0] == '~') return make_error("'~' is not expanded: name the folder inside the workspace, or an absolute path as //PATH");
  std::string_view body = text;
  if (body.substr(0, 2) == "//") {
    pattern.anchor = PathPattern::Anchor::absolute;
    body.remove_prefix(2);
  } else if (body[0] == '/') {
    return make_error("a leading '/' is ambiguous: write '" + std::string(body.substr(1)) +
                      "' for the workspace's, or '/" + std::string(body) + "' for the absolute path");
  }
  while (!body.empty() && body.back() == '/') body.remove_suffix(1);
  pattern.segments = split_segments(body);
  if (pattern.segments.empty()) return make_error("a path pattern must name something");
  for (const std::string& segment : pattern.segments) {
    if (auto problem = segment_problem(segment)) return make_error("the pattern " + *problem);
  }
  if (pattern.anchor != PathPattern::Anchor::absolute && body.find('/') == std::string_view::npos) {
    pattern.anchor = PathPattern::Anchor::any_depth;
  }
  return pattern;
}

std::vector<CanonicalPath> canonical_paths(const fs::path& workspace, std::string_view text) {
  if (text.empty() || text.find('\0') != std::string_view::npos || text.size() > 4096) return {};
  const bool virtual_root = workspace.empty();
  std::error_code ec;
  fs::path root = virtual_root ? fs::path("/workspace") : fs::weakly_canonical(fs::absolute(workspace, ec), ec);
  if (ec) root = fs::absolute(workspace).lexically_normal();
  const fs::path written(text);
  const fs::path lexical = (written.is_absolute() ? written : root / written).lexically_normal();
  std::vector<CanonicalPath> views{view_of(root, lexical)};
  if (!virtual_root) {
    fs::path resolved = fs::weakly_canonical(lexical, ec);
    if (!ec && resolved.lexically_normal() != lexical) views.push_back(view_of(root, resolved.lexically_normal()));
  }
  return views;
}

bool path_pattern_matches(const PathPattern& pattern, const CanonicalPath& path) {
  switch (pattern.anchor) {
    case PathPattern::Anchor::any_depth: {
      std::vector<std::string> parts = path.inside ? relative_segments(path) : split_segments(path.absolute);
      return std::any_of(parts.begin(), parts.end(),
                         [&](const std::string& part) { return segment_glob_matches(pattern.segments[0], part); });
    }
    case PathPattern::Anchor::workspace:
      if (path.inside) return segments_match(pattern.segments, relative_segments(path));
      return pattern.segments[0] == "**" && segments_match(pattern.segments, split_segments(path.absolute));
    case PathPattern::Anchor::absolute:
      return segments_match(pattern.segments, split_segments(path.absolute));
  }
  return false;
}

}  // namespace agent_run
