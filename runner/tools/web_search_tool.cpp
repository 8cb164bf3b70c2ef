#include "base/duration.h"
#include "base/text.h"
#include "tools/builtin_tools.h"
#include "tools/tool_input.h"

#include <algorithm>

namespace agent_run {

namespace {

constexpr std::chrono::milliseconds k_search_timeout{30000};
constexpr std::int64_t k_max_results = 20;

/// `word` with every `{name}` replaced by `value`.
std::string substitute(std::string word, const std::string& name, const std::string& value) {
  for (std::size_t at = word.find(name); at != std::string::npos; at = word.find(name, at + value.size())) {
    word.replace(at, name.size(), value);
  }
  return word;
}

/// The configured command with the query and the result count filled in, each word one argument
/// (no shell: the query cannot inject anything).
std::vector<std::string> search_argv(const std::vector<std::string>& command, const std::string& query,
                                     std::int64_t max_results) {
  std::vector<std::string> argv;
  for (const std::string& word : command) {
    argv.push_back(substitute(substitute(word, "{query}", query), "{max_results}", std::to_string(max_results)));
  }
  return argv;
}

/// Searches the web by running the command the task configures (`web_search: custom`, ddgs by default).
class WebSearchTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "web_search", "Search the web and return the results (titles, links, snippets). Fetch a result with web_fetch.",
        object_schema(Json::object()
                          .set("query", property("string", "What to search for"))
                          .set("max_results", property("integer", "How many results (default 5, at most 20)")),
                      {"query"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session,
                 std::chrono::milliseconds timeout) override {
    auto query = required_string(input, "query");
    auto max_results = optional_integer(input, "max_results", 5);
    if (!query) return failure(query.error().message);
    if (!max_results || *max_results < 1) return failure("max_results must be a whole number from 1 to 20");
    if (trim(*query).empty()) return failure("the query is empty");
    const std::vector<std::string>& command = scope.web.search_command;
    if (command.empty()) return failure("web search is not configured for this task (web_search: custom)");
    ProcessSpec spec;
    spec.argv = search_argv(command, *query, std::min(*max_results, k_max_results));
    spec.cwd = scope.workspace;
    spec.environment = scope.environment;
    spec.timeout = std::min(k_search_timeout, timeout);
    spec.cancellation = scope.cancellation;
    auto result = session.processes.run(spec);
    if (!result) return failure(result.error().message);
    if (result->cancelled) return failure("agent-run was stopped (SIGINT or SIGTERM) before the search finished");
    if (result->timed_out) return failure("the search command timed out after " + format_duration(spec.timeout));
    if (result->exit_code != 0) {
      return failure("the search command exited " + std::to_string(result->exit_code) + ":\n" + result->output);
    }
    std::string text = trim(result->output).empty() ? "No results.\n" : result->output;
    return ToolOutput{text, false, std::nullopt};
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("web_search", message), true, {}};
  }
};

}  // namespace

std::unique_ptr<Tool> make_web_search_tool() { return std::make_unique<WebSearchTool>(); }

}  // namespace agent_run
