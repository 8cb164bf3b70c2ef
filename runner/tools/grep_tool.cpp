#include "base/safe_open.h"
#include "base/text.h"
#include "exec/spawn.h"
#include "search/grep_report.h"
#include "tools/builtin_tools.h"
#include "tools/confined_path.h"
#include "tools/hidden_files.h"
#include "tools/tool_input.h"

#include <sys/stat.h>
#include <unistd.h>

namespace agent_run {

namespace {

constexpr std::int64_t k_default_max_results = 100;
constexpr std::int64_t k_max_context = 50;

/// Reads the tool's input into a GrepRequest (the path still as the model wrote it).
Expected<GrepRequest> read_request(const Json& input) {
  GrepRequest request;
  auto pattern = required_string(input, "pattern");
  if (!pattern) return pattern.error();
  request.pattern = *pattern;
  const Json* path = input.find("path");
  if (path && !path->is_null()) {
    if (!path->is_string()) return make_error("parameter 'path' must be a string, got " + path->dump());
    request.path = path->as_string();
  }
  const Json* glob = input.find("glob");
  if (glob && !glob->is_null()) {
    if (!glob->is_string()) return make_error("parameter 'glob' must be a string, got " + glob->dump());
    request.globs.push_back(glob->as_string());
  }
  auto case_insensitive = optional_boolean(input, "case_insensitive", false);
  if (!case_insensitive) return case_insensitive.error();
  request.case_insensitive = *case_insensitive;
  auto context = optional_integer(input, "context", 0);
  if (!context) return context.error();
  auto before = optional_integer(input, "before", *context);
  auto after = optional_integer(input, "after", *context);
  if (!before) return before.error();
  if (!after) return after.error();
  for (std::int64_t lines : {*before, *after}) {
    if (lines < 0 || lines > k_max_context)
      return make_error("context lines must be between 0 and " + std::to_string(k_max_context));
  }
  request.before = static_cast<int>(*before);
  request.after = static_cast<int>(*after);
  auto max_results = optional_integer(input, "max_results", k_default_max_results);
  if (!max_results) return max_results.error();
  if (*max_results < 1) return make_error("max_results must be at least 1");
  request.max_results = static_cast<std::size_t>(*max_results);
  std::string output = input.get_string("output", "content");
  if (output == "content") request.output = GrepOutput::content;
  else if (output == "files_with_matches") request.output = GrepOutput::files_with_matches;
  else if (output == "count") request.output = GrepOutput::count;
  else return make_error("output must be content, files_with_matches or count, got '" + output + "'");
  return request;
}

/// Searches the whole workspace, a folder or one file for a regular expression.
class GrepTool final : public Tool {
 public:
  ToolSchema schema() const override {
    Json output = property(
        "string", "content (default): matching lines; files_with_matches: file names; count: matches per file");
    output.set("enum", Json(Json::Array{"content", "files_with_matches", "count"}));
    return ToolSchema{
        "grep",
        "Search file contents with a regular expression (ripgrep syntax; \\w \\d \\s \\b are ASCII). Searches the "
        "workspace, or one folder or file, skipping .gitignored, binary and .git files, and files the policy hides "
        "(the "
        "answer says how many). Output is grouped by file: "
        "the path, then `line:text` for matches and `line-text` for context lines. A line over " +
            std::to_string(GrepReport::k_max_line_bytes) + " bytes is cut; the answer stops at " +
            std::to_string(GrepReport::k_max_output_bytes) + " bytes and says so.",
        object_schema(
            Json::object()
                .set("pattern",
                     property("string", "Regular expression, e.g. \"def load_config\\\\(\" or \"TODO|FIXME\""))
                .set("path",
                     property("string", "File or folder to search, relative to the workspace (default: all of it)"))
                .set("glob",
                     property(
                         "string",
                         "Only files matching this glob, e.g. \"*.py\" or \"src/**/*.{ts,tsx}\"; a leading ! excludes"))
                .set("case_insensitive", property("boolean", "Ignore case (default false)"))
                .set("context", property("integer", "Lines of context before and after each match (default 0)"))
                .set("before", property("integer", "Lines of context before each match (overrides context)"))
                .set("after", property("integer", "Lines of context after each match (overrides context)"))
                .set("output", std::move(output))
                .set("max_results", property("integer", "Most matching lines (or files) to show (default 100)")),
            {"pattern"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState&, std::chrono::milliseconds timeout) override {
    auto request = read_request(input);
    if (!request) return failure(request.error().message);
    auto where = confine_path(scope.workspace, request->path, Access::read, scope.protected_paths);
    if (!where) return failure(where.error().message);
    request->path = where->relative;
    auto info = stat_beneath(scope.workspace, where->relative);
    if (!info) return failure(info.error().message);
    if (!S_ISDIR(info->st_mode) && !S_ISREG(info->st_mode)) {
      return failure("'" + where->relative + "' is " + special_file_kind(info->st_mode) + "; it is never opened");
    }
    if (auto refusal = refuse_binary_file(scope.workspace, *request)) return failure(*refusal);
    auto patterns = prepare_patterns(request->pattern, request->case_insensitive);
    if (!patterns) return failure(patterns.error().message);
    if (auto globs = search_overrides(request->globs); !globs) return failure(globs.error().message);

    const HiddenPaths hidden = hidden_paths(scope);
    SearchScope search{scope.workspace, std::chrono::steady_clock::now() + timeout, scope.environment,
                       hidden ? &hidden : nullptr};
    GrepReport report(*request);
    auto sink = [&report](GrepFile&& file) { return report.add(std::move(file)); };
    Expected<void> searched = make_error("");
    std::optional<std::filesystem::path> ripgrep;
    if (scope.grep_backend != GrepBackend::builtin) ripgrep = find_program("rg", scope.environment);
    if (ripgrep) {
      searched = search_with_ripgrep(*ripgrep, search, *request, *patterns, sink);
    } else if (scope.grep_backend == GrepBackend::ripgrep) {
      return failure("ripgrep (rg) is not on PATH");
    } else {
      searched = search_builtin(search, *request, *patterns, sink);
    }
    if (!searched) return failure(searched.error().message);
    return ToolOutput{
        report.text() + withheld_under(scope, request->path, request->globs).note("searched"), false, {}, {}};
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("grep", message), true, {}, {}};
  }

  /// A binary file named on its own gets a clear answer instead of "No matches found".
  static std::optional<std::string> refuse_binary_file(const std::filesystem::path& workspace,
                                                       const GrepRequest& request) {
    auto file = open_regular_file(workspace, request.path);
    if (!file) return std::nullopt;  // a folder (or nothing): the search says what it finds
    char buffer[65536];
    for (;;) {
      ssize_t n = ::read(file->fd.get(), buffer, sizeof buffer);
      if (n <= 0) return std::nullopt;
      if (is_binary_content(std::string_view(buffer, static_cast<std::size_t>(n)))) {
        return "'" + request.path + "' is a binary file; grep searches text files only";
      }
    }
  }
};

}  // namespace

std::unique_ptr<Tool> make_grep_tool() { return std::make_unique<GrepTool>(); }

}  // namespace agent_run
