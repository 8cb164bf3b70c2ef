#include "policy/rule_matching.h"

#include "policy/host_pattern.h"
#include "policy/option_matching.h"
#include "policy/tool_names.h"
#include "tools/protected_paths.h"
#include "tools/tool_call.h"
#include "tools/tool_table.h"

#include <algorithm>

namespace agent_run {

namespace {

/// The path a file tool's call names (its table's path key, else the table's default), if any.
std::optional<std::string> path_of(const ToolCall& call, const BuiltinTool& tool) {
  const Json* path = call.input.find(tool.path_key);
  if (path && path->is_string()) return path->as_string();
  if (!tool.path_default.empty()) return std::string(tool.path_default);
  return std::nullopt;
}

bool any_pattern_matches(const Rule& rule, const CanonicalPath& path) {
  return std::any_of(rule.paths.begin(), rule.paths.end(),
                     [&](const PathPattern& pattern) { return path_pattern_matches(pattern, path); });
}

/// Deny rules match when any view of the path is matched; allow rules only when every view is
/// (a symlink inside an allowed folder that leads elsewhere is not allowed).
bool paths_match(const Rule& rule, const std::vector<CanonicalPath>& paths) {
  if (rule.paths.empty()) return true;
  if (paths.empty()) return false;
  auto matched = [&](const CanonicalPath& path) { return any_pattern_matches(rule, path); };
  return rule.verdict == Verdict::deny ? std::any_of(paths.begin(), paths.end(), matched)
                                       : std::all_of(paths.begin(), paths.end(), matched);
}

bool web_matches(const Rule& rule, const WebUrl& target) {
  const bool allow = rule.verdict == Verdict::allow;
  if (!rule.hosts.empty() && std::none_of(rule.hosts.begin(), rule.hosts.end(), [&](const std::string& host) {
        return host_pattern_matches(host, target.host);
      })) {
    return false;
  }
  if (rule.schemes.empty() ? allow && target.scheme != "https"
                           : std::find(rule.schemes.begin(), rule.schemes.end(), target.scheme) == rule.schemes.end()) {
    return false;
  }
  const int default_port = target.scheme == "https" ? 443 : 80;
  if (rule.ports.empty()) return !allow || target.port == default_port;
  return std::find(rule.ports.begin(), rule.ports.end(), target.port) != rule.ports.end();
}

bool prefix_matches(const Rule& rule, const std::vector<std::string>& argv, std::string_view program) {
  if (argv.size() < rule.argv_prefix.size()) return false;
  for (std::size_t i = 0; i < rule.argv_prefix.size(); ++i) {
    std::string_view word = i == 0 ? program : std::string_view(argv[i]);
    const std::vector<std::string>& choices = rule.argv_prefix[i];
    if (std::find(choices.begin(), choices.end(), word) == choices.end()) return false;
  }
  return true;
}

bool regex_matches(const Rule& rule, const std::vector<std::string>& argv, std::string_view program) {
  const std::size_t count = rule.argv_regex.size();
  if (argv.size() < count || (!rule.argv_regex_any_tail && argv.size() != count)) return false;
  for (std::size_t i = 0; i < count; ++i) {
    if (!rule.argv_regex[i].full_match(i == 0 ? program : std::string_view(argv[i]))) return false;
  }
  return true;
}

/// True when the rule's first word is itself path-qualified, so it may match `./tool`.
bool rule_names_a_path(const Rule& rule) {
  if (!rule.argv_prefix.empty()) {
    const std::vector<std::string>& first = rule.argv_prefix[0];
    return std::any_of(first.begin(), first.end(),
                       [](const std::string& w) { return w.find('/') != std::string::npos; });
  }
  return !rule.argv_regex.empty() && rule.argv_regex[0].text().find('/') != std::string::npos;
}

}  // namespace

bool writes_files(std::string_view tool_name) {
  const BuiltinTool* tool = find_builtin_tool(tool_name);
  return tool != nullptr && tool->writes_files;
}

CallFacts call_facts(const ToolCall& call, const DecisionContext& context) {
  CallFacts facts;
  if (takes_a_path(call.name)) {
    if (std::optional<std::string> path = path_of(call, *find_builtin_tool(call.name))) {
      facts.paths = canonical_paths(context.workspace, *path);
      if (path->size() > k_max_path_bytes) {
        facts.problem = "a path of " + std::to_string(path->size()) + " bytes is too long to check";
      } else if (!facts.paths.empty() && !facts.paths.front().magic.empty()) {
        facts.problem = "'" + path->substr(0, 200) + "' goes through " + facts.paths.front().magic +
                        ": the file tools run in agent-run itself and never open a process's own files";
      }
    }
  } else if (call.name == "web_fetch") {
    const Json* url = call.input.find("url");
    Expected<WebUrl> target =
        url && url->is_string() ? parse_web_url(url->as_string()) : Expected<WebUrl>(make_error("the call has no url"));
    if (target) facts.web = *target;
    else facts.problem = target.error().message;
  }
  return facts;
}

bool is_protected(const CanonicalPath& path, const Policy& policy, const DecisionContext& context) {
  std::vector<std::filesystem::path> protected_paths = context.protected_paths;
  if (!policy.source.empty()) protected_paths.push_back(policy.source);
  const std::vector<CanonicalPath> root = canonical_paths(context.workspace, ".");
  if (root.empty()) return true;
  return write_protection(path.absolute, root.back().absolute, protected_paths).has_value();
}

bool rule_names_tool(const Rule& rule, std::string_view tool_name) {
  return std::any_of(rule.tools.begin(), rule.tools.end(),
                     [&](const std::string& pattern) { return tool_pattern_matches(pattern, tool_name); });
}

bool rule_matches_facts(const Rule& rule, const CallFacts& facts) {
  if (!rule.argv_prefix.empty() || !rule.argv_regex.empty()) return false;
  if (!paths_match(rule, facts.paths)) return false;
  const bool web_rule = !rule.hosts.empty() || !rule.schemes.empty() || !rule.ports.empty();
  if (!web_rule) return true;
  return facts.web && web_matches(rule, *facts.web);
}

bool argv_matches(const Rule& rule, const std::vector<std::string>& argv) {
  if (argv.empty()) return false;
  std::string_view program = argv[0];
  if (rule.verdict == Verdict::deny) {
    program = program_name(program);
  } else if (program.find('/') != std::string_view::npos && !rule_names_a_path(rule)) {
    return false;
  }
  if (!rule.argv_prefix.empty()) return prefix_matches(rule, argv, program);
  if (!rule.argv_regex.empty()) return regex_matches(rule, argv, program);
  return true;
}

bool bash_deny_matches(const Rule& rule, const CommandViews& views, const std::vector<CanonicalPath>& paths) {
  const bool any_argv = !rule.argv_prefix.empty() || !rule.argv_regex.empty();
  bool argv_ok =
      !any_argv || std::any_of(views.argvs.begin(), views.argvs.end(), [&](const std::vector<std::string>& argv) {
        return argv_matches(rule, argv) && options_match(rule, argv);
      });
  return argv_ok && paths_match(rule, paths);
}

bool redirects_allowed(const Rule& rule, const SimpleCommand& command) {
  return std::all_of(command.redirects.begin(), command.redirects.end(), [&](const ShellRedirect& redirect) {
    return std::find(rule.redirects.begin(), rule.redirects.end(), redirect.rule_target()) != rule.redirects.end();
  });
}

bool bash_allow_matches(const Rule& rule, const SimpleCommand& command) {
  return rule.paths.empty() && argv_matches(rule, command.argv) && redirects_allowed(rule, command);
}

std::string denial_reason(const Rule& rule) {
  std::string reason = rule.ask ? "requires approval; no human in the loop" : "denied by policy";
  if (!rule.message.empty()) reason += ": " + rule.message;
  return reason;
}

}  // namespace agent_run
