#include "batch/patch_secrets.h"

#include "base/files.h"
#include "base/redaction.h"

#include <string_view>
#include <utility>

namespace agent_run {

namespace {

/// The largest changed file looked through for secrets; a larger one is withheld unread.
constexpr std::size_t k_largest_checked_file = 64 * 1024 * 1024;

/// The path a `diff --git a/X b/X` section is about: its `+++ b/` line, else its `--- a/` line.
std::string section_path(std::string_view section) {
  std::string from;
  for (std::size_t start = 0; start < section.size();) {
    std::size_t end = section.find('\n', start);
    std::string_view line = section.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (line.starts_with("+++ b/")) return std::string(line.substr(6));
    if (line.starts_with("--- a/")) from = std::string(line.substr(6));
    if (line.starts_with("@@") || end == std::string_view::npos) break;
    start = end + 1;
  }
  return from;
}

}  // namespace

PatchFilter withholding_secrets(PatchFilter filter, std::filesystem::path workspace, std::vector<std::string> secrets) {
  return [filter = std::move(filter), workspace = std::move(workspace),
          secrets = std::move(secrets)](std::string_view relative) -> std::string {
    if (filter) {
      if (std::string why = filter(relative); !why.empty()) return why;
    }
    if (secrets.empty()) return "";
    std::error_code ec;
    const auto path = workspace / std::filesystem::path(relative);
    if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec))) return "";
    if (std::filesystem::file_size(path, ec) > k_largest_checked_file && !ec) {
      return "larger than " + std::to_string(k_largest_checked_file >> 20) + " MiB: not looked through for the task's secrets";
    }
    auto content = read_file_beneath(workspace, relative, k_largest_checked_file);
    if (content && holds_secret_value(*content, secrets)) return "holds the value of one of the task's secrets";
    return "";
  };
}

RedactedPatch redact_patch(const std::string& patch, const std::vector<std::string>& secrets) {
  RedactedPatch redacted;
  if (!holds_secret_value(patch, secrets)) {
    redacted.text = patch;
    return redacted;
  }
  for (std::size_t start = 0; start < patch.size();) {
    std::size_t next = patch.find("\ndiff --git ", start);
    std::size_t end = next == std::string::npos ? patch.size() : next + 1;
    std::string_view section = std::string_view(patch).substr(start, end - start);
    if (holds_secret_value(section, secrets)) {
      redacted.files.push_back(section_path(section));
      redacted.text += redact_values(std::string(section), secrets);
    } else {
      redacted.text += section;
    }
    start = end;
  }
  return redacted;
}

}  // namespace agent_run
