#include "agent/system_prompt.h"

#include "base/digest.h"
#include "base/duration.h"
#include "base/safe_open.h"
#include "base/text.h"
#include "tools/tool_table.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace agent_run {

namespace {

constexpr std::size_t k_max_instruction_bytes = 64 * 1024;

const char* const k_headless_rules =
    "You are a coding agent running non-interactively, in CI. No human is watching and nobody will answer: "
    "never wait for approval or for an answer. Every tool call is approved or denied by a policy; when one is "
    "denied, read the reason and carry on another way. Work in the workspace; every path is relative to it. "
    "When the task is done, say briefly what you did and stop calling tools.";

/// Up to `max_bytes` of the regular file `relative` beneath `workspace`; nullopt when there is none.
std::optional<std::string> read_beneath(const std::filesystem::path& workspace, const std::string& relative,
                                        std::size_t max_bytes) {
  auto file = open_regular_file(workspace, relative);
  if (!file) return std::nullopt;
  std::string text;
  char buffer[8192];
  while (text.size() < max_bytes) {
    ssize_t got = ::read(file->fd.get(), buffer, sizeof buffer);
    if (got <= 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  if (text.size() > max_bytes) text.resize(max_bytes);
  return text;
}

std::string tools_by_class(const std::vector<std::string>& tools) {
  std::vector<std::string> automatic, prompts, never, others;
  for (const std::string& name : tools) {
    const BuiltinTool* tool = find_builtin_tool(name);
    if (tool == nullptr) others.push_back(name);
    else if (tool->approval == ApprovalClass::automatic) automatic.push_back(name);
    else if (tool->approval == ApprovalClass::prompts) prompts.push_back(name);
    else never.push_back(name);
  }
  prompts.insert(prompts.end(), others.begin(), others.end());  // MCP tools need a rule too
  std::string text;
  if (!automatic.empty()) text += "- allowed unless the policy denies them: " + join(automatic, ", ") + "\n";
  if (!prompts.empty()) text += "- allowed only where the policy allows them: " + join(prompts, ", ") + "\n";
  if (!never.empty()) text += "- always allowed (they touch only your own session): " + join(never, ", ") + "\n";
  return text;
}

std::string limits_text(const Limits& limits) {
  std::string text = std::to_string(limits.turns) + " turns, " + format_duration(limits.time) + " in all, " +
                     format_duration(limits.tool_timeout) + " per tool call";
  if (limits.tokens) text += ", " + std::to_string(*limits.tokens) + " tokens";
  if (limits.cost_usd) {
    char cost[32];
    std::snprintf(cost, sizeof cost, "$%.2f", *limits.cost_usd);
    text += std::string(", ") + cost;
  }
  return text + ". When a limit is hit the attempt ends where it stands; context_status shows what is left.";
}

std::string unavailable_text(const std::vector<std::string>& unavailable) {
  std::string text;
  for (const std::string& line : unavailable) text += "- unavailable: " + line + "\n";
  return text;
}

std::string environment_text(const PromptFacts& facts) {
  return "# Environment\n- workspace: " + facts.workspace +
         ", the folder your commands start in; every path is relative to it\n- operating system: " +
         facts.operating_system + "\n- today's date (UTC): " + format_utc(facts.now).substr(0, 10) + "\n- tools:\n" +
         tools_by_class(facts.tools) + unavailable_text(facts.unavailable) + "- limits: " + limits_text(facts.limits) +
         "\n";
}

}  // namespace

std::vector<ProjectInstructions> read_project_instructions(const std::filesystem::path& workspace,
                                                           const std::vector<std::string>& names,
                                                           const std::vector<std::filesystem::path>& above) {
  std::vector<std::pair<std::filesystem::path, std::string>> folders;  // the folder, the prefix naming it
  for (std::size_t i = 0; i < above.size(); ++i) {
    std::string prefix;
    for (std::size_t up = i; up < above.size(); ++up) prefix += "../";
    folders.emplace_back(above[i], prefix);
  }
  folders.emplace_back(workspace, "");
  std::vector<ProjectInstructions> found;
  std::size_t left = k_max_instruction_bytes;
  for (const auto& [folder, prefix] : folders) {
    for (const std::string& name : names) {
      auto text = read_beneath(folder, name, left + 1);
      if (!text) continue;
      ProjectInstructions file{prefix + name, std::move(*text)};
      if (file.text.size() > left) {
        file.text.resize(left);
        file.text = repair_utf8(file.text) + "\n[agent-run: the project's instructions are longer than 64 KiB; the " +
                    "rest of " + file.file + " was cut]";
      }
      left -= std::min(left, file.text.size());
      found.push_back(std::move(file));
      break;  // one file a folder
    }
  }
  return found;
}

SystemPrompt make_system_prompt(const PromptFacts& facts, const std::optional<std::string>& replacement) {
  std::string text;
  if (replacement) {
    text = *replacement;
  } else {
    text = std::string(k_headless_rules) + "\n\n" + environment_text(facts);
    for (const ProjectInstructions& project : facts.project) {
      text += "\n# Project instructions (" + project.file + ")\n" + project.text + "\n";
    }
    if (!facts.task_instructions.empty()) text += "\n# Instructions for this task\n" + facts.task_instructions + "\n";
    if (facts.output_schema) {
      text +=
          "\n# The final answer\nWhen you are done, your last message must be one JSON value that matches this "
          "JSON Schema, and nothing else (no prose, no code fence):\n" +
          facts.output_schema->dump() + "\n";
    }
  }
  return SystemPrompt{text, sha256_hex(text)};
}

std::string headless_rules() { return k_headless_rules; }

std::string operating_system_name() {
  utsname name{};
  if (::uname(&name) != 0) return "Linux";
  return std::string(name.sysname) + " " + name.release + " " + name.machine;
}

}  // namespace agent_run
