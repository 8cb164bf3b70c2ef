#include "diagnostics/warm_start.h"

#include "base/files.h"

#include <algorithm>
#include <map>

namespace agent_run {

namespace {

// A file bigger than this is not a good first document (a generated table).
constexpr std::uintmax_t k_largest_first_file = 1024 * 1024;

/// Whether `a` makes a better first document than `b`: not a Go test, shallower, then by name.
bool better_first(const std::filesystem::path& a, const std::filesystem::path& b) {
  auto rank = [](const std::filesystem::path& path) {
    bool test = path.extension() == ".go" && path.stem().string().ends_with("_test");
    return std::make_tuple(test, std::distance(path.begin(), path.end()), path.string());
  };
  return rank(a) < rank(b);
}

}  // namespace

std::vector<WarmStart> warm_starts(const std::filesystem::path& workspace, const HiddenPath& hidden,
                                   std::size_t most) {
  struct Seen {
    std::size_t files = 0;
    std::filesystem::path first;
  };
  std::map<Language, Seen> seen;
  for (const auto& [path, stamp] : survey_folder(workspace, hidden).files) {
    Language language = language_of(path, "");  // a script without an extension has no server anyway
    if (language == Language::none || language == Language::shell || stamp.size > k_largest_first_file) continue;
    Seen& of = seen[language];
    ++of.files;
    if (of.first.empty() || better_first(path, of.first)) of.first = path;
  }
  std::vector<std::pair<Language, Seen>> ranked(seen.begin(), seen.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second.files > b.second.files; });
  std::vector<WarmStart> starts;
  for (const auto& [language, of] : ranked) {
    if (starts.size() >= most) break;
    auto text = read_file(of.first);
    if (text) starts.push_back(WarmStart{language, of.first, std::move(*text)});
  }
  return starts;
}

}  // namespace agent_run
