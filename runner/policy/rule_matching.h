#pragma once

#include "net/web_url.h"
#include "policy/command_views.h"
#include "policy/policy.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// What rules look at in one non-bash call, worked out once: the canonical views of the path it
/// names and, for web_fetch, where it would connect.
struct CallFacts {
  std::vector<CanonicalPath> paths;
  std::optional<WebUrl> web;
  std::string problem;  // the call names something that cannot be checked (a URL read two ways)
};

/// True for the tools that change files: their paths are checked against the protected ones.
bool writes_files(std::string_view tool_name);

/// The facts of a call to a tool other than bash.
CallFacts call_facts(const ToolCall& call, const DecisionContext& context);

/// True when `path` may never be written (tools/protected_paths: inside .git/, the policy file, or a
/// protected path of the context).
bool is_protected(const CanonicalPath& path, const Policy& policy, const DecisionContext& context);

/// True when `rule` lists `tool_name` among its tools.
bool rule_names_tool(const Rule& rule, std::string_view tool_name);

/// True when every matcher of `rule` accepts a non-bash call with these facts.
bool rule_matches_facts(const Rule& rule, const CallFacts& facts);

/// True when the rule's argv_prefix or argv_regex accepts `argv` (or it has neither). Deny rules
/// compare the program's name without its folder; allow rules written for a bare name never
/// accept a path-qualified program (`./git`).
bool argv_matches(const Rule& rule, const std::vector<std::string>& argv);

/// True when a deny (or ask) rule for bash matches one command: its argv matcher (and its
/// `options`) match one of the views, or it has no argv matcher; and its path patterns match one of
/// `paths`, or it has none.
bool bash_deny_matches(const Rule& rule, const CommandViews& views, const std::vector<CanonicalPath>& paths);

/// True when an allow rule for bash accepts `command` as written, its redirections included.
bool bash_allow_matches(const Rule& rule, const SimpleCommand& command);

/// True when every redirection of `command` is one `rule` opts in to.
bool redirects_allowed(const Rule& rule, const SimpleCommand& command);

/// The sentence that denies by `rule`: its `ask` meaning and its message.
std::string denial_reason(const Rule& rule);

}  // namespace agent_run
