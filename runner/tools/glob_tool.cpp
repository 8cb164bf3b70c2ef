#include "search/file_walk.h"
#include "search/newest_first.h"
#include "tools/builtin_tools.h"
#include "tools/confined_path.h"
#include "tools/hidden_files.h"
#include "tools/tool_input.h"

namespace agent_run {

namespace {

constexpr std::int64_t k_default_max_results = 100;

/// The pattern as a gitignore-style glob relative to the search folder: without a '/', it matches a
/// name at any depth (`*.go` finds every Go file, and so does `**.go`, whose `**` is only a `*`); a
/// leading '/' only anchors.
Expected<GlobPattern> compile_pattern(std::string pattern) {
  if (pattern.empty()) return make_error("pattern is empty");
  if (auto as_written = GlobPattern::compile(pattern); !as_written) return as_written.error();
  if (pattern.front() == '/') {
    pattern.erase(0, 1);
  } else if (pattern.find('/') == std::string::npos) {
    pattern = "**/" + pattern;
  }
  if (pattern.size() >= 3 && pattern.compare(pattern.size() - 3, 3, "/**") == 0) pattern += "/*";
  return GlobPattern::compile(pattern);
}

/// Lists the files whose path matches a glob, newest first.
class GlobTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "glob",
        "Find files by name with a glob, newest first. A pattern without '/' matches at any depth (\"*.go\"); "
        "\"**\" spans folders and {a,b} alternates (\"src/**/*.{ts,tsx}\"). Skips .gitignored files, .git, and files "
        "the policy hides (the answer says how many).",
        object_schema(
            Json::object()
                .set("pattern",
                     property("string",
                              "Glob, relative to the folder searched, e.g. \"*.py\" or \"tests/**/test_*.py\""))
                .set("path", property("string", "Folder to search, relative to the workspace (default: all of it)"))
                .set("max_results", property("integer", "Most files to list (default 100)")),
            {"pattern"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState&, std::chrono::milliseconds) override {
    auto pattern_text = required_string(input, "pattern");
    if (!pattern_text) return failure(pattern_text.error().message);
    std::string path = input.get_string("path", ".");
    if (const Json* given = input.find("path"); given && !given->is_null() && !given->is_string()) {
      return failure("parameter 'path' must be a string, got " + given->dump());
    }
    auto max_results = optional_integer(input, "max_results", k_default_max_results);
    if (!max_results) return failure(max_results.error().message);
    if (*max_results < 1) return failure("max_results must be at least 1");
    auto pattern = compile_pattern(*pattern_text);
    if (!pattern) return failure(pattern.error().message);
    auto folder = confine_path(scope.workspace, path, Access::read, scope.protected_paths);
    if (!folder) return failure(folder.error().message);
    if (!std::filesystem::is_directory(folder->absolute)) return failure("'" + path + "' is not a folder");

    Withheld withheld;
    NewestFirst found;
    // A trailing '/' names folders only (gitignore's and ripgrep's rule): no file matches it.
    if (pattern_text->back() == '/') {
      return ToolOutput{"No files match '" + *pattern_text +
                            "': a pattern ending in '/' names folders, and glob lists files (try '" + *pattern_text +
                            "**').\n",
                        false, {}, {}};
    }
    if (auto walked = find_files(scope, folder->relative, *pattern, found, withheld); !walked) {
      return failure(walked.error().message);
    }
    std::string text = listing(found, *pattern_text, static_cast<std::size_t>(*max_results));
    text += withheld.note("listed");
    return ToolOutput{std::move(text), false, {}, {}};
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("glob", message), true, {}, {}};
  }

  static Expected<void> find_files(const ToolScope& scope, const std::string& folder, const GlobPattern& pattern,
                                   NewestFirst& found, Withheld& withheld) {
    const std::size_t skip = folder == "." ? 0 : folder.size() + 1;
    auto overrides = search_overrides({});
    if (!overrides) return overrides.error();
    const HiddenPaths hidden = hidden_paths(scope);
    return walk_files(
        scope.workspace, folder, *overrides,
        [&](const WalkedFile& file) {
          if (pattern.matches(file.path.substr(skip))) found.add(file);
          return WalkStep::go_on;
        },
        hidden ? &hidden : nullptr, &withheld);
  }

  static std::string listing(NewestFirst& found, const std::string& pattern, std::size_t max_results) {
    if (found.size() == 0) return "No files match '" + pattern + "'.\n";
    std::string out = found.list(max_results);
    if (found.size() > max_results) {
      out += "[" + std::to_string(max_results) + " of " + std::to_string(found.size()) +
             " files, newest first; narrow the pattern or the path to see the others]\n";
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Tool> make_glob_tool() { return std::make_unique<GlobTool>(); }

}  // namespace agent_run
