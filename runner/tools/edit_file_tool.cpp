#include "base/digest.h"
#include "tools/builtin_tools.h"
#include "tools/diagnostics_hook.h"
#include "tools/edit_checks.h"
#include "tools/file_writing.h"
#include "tools/tool_input.h"
#include "tools/unified_diff.h"

namespace agent_run {

namespace {

std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

std::string replace_occurrences(std::string text, const std::string& old_text, const std::string& new_text) {
  for (std::size_t at = text.find(old_text); at != std::string::npos; at = text.find(old_text, at + new_text.size())) {
    text.replace(at, old_text.size(), new_text);
  }
  return text;
}

/// Replaces an exact string in a file this attempt has read, refusing ambiguous matches and no-ops.
class EditFileTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "edit_file",
        "Replace an exact string in a file you have read with read_file. `old` must match exactly one place "
        "unless replace_all is true. Returns a diff of the change.",
        object_schema(Json::object()
                          .set("path", property("string", "File path, relative to the workspace"))
                          .set("old", property("string", "The exact text to replace"))
                          .set("new", property("string", "The text to put in its place"))
                          .set("replace_all", property("boolean", "Replace every occurrence (default false)")),
                      {"path", "old", "new"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session, std::chrono::milliseconds) override {
    auto path = required_string(input, "path");
    auto old_text = required_string(input, "old");
    auto new_text = required_string(input, "new");
    auto replace_all = optional_boolean(input, "replace_all", false);
    if (!path) return failure(path.error().message);
    if (!old_text) return failure(old_text.error().message);
    if (!new_text) return failure(new_text.error().message);
    if (!replace_all) return failure(replace_all.error().message);
    auto file = confine_path(scope.workspace, *path, Access::write, scope.protected_paths);
    if (!file) return failure(file.error().message);
    auto existing = read_existing_file(scope.workspace, *file);
    if (!existing) return failure(existing.error().message);
    auto refusal = check_edit(*file, *existing, *old_text, *new_text, *replace_all, session);
    if (!refusal.empty()) return failure(refusal);

    std::string updated = replace_occurrences(existing->content, *old_text, *new_text);
    auto written = replace_file_content(scope.workspace, *file, updated);
    if (!written) return failure(written.error().message);
    session.reads[file->relative] = sha256_hex(updated);
    FileDiff diff = diff_file(file->relative, existing->content, updated);
    ToolOutput output;
    output.edit =
        EditRecord{.path = file->relative, .lines_added = diff.lines_added, .lines_removed = diff.lines_removed};
    output.content = "Edited " + file->relative + ": " + std::to_string(diff.lines_added) + " additions, " +
                     std::to_string(diff.lines_removed) + " removals\n" + diff.text;
    check_written_file(scope, *file, *existing, updated, output);
    check_after_edit(scope, output);
    return output;
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("edit_file", message), true, {}, {}};
  }

  /// Why this edit may not go ahead, or empty when it may.
  static std::string check_edit(const ConfinedPath& file, const ExistingFile& existing, const std::string& old_text,
                                const std::string& new_text, bool replace_all, const SessionState& session) {
    if (!existing.exists) {
      return "'" + file.relative + "' does not exist; use write_file to create it";
    }
    auto seen = session.reads.find(file.relative);
    if (seen == session.reads.end()) {
      return "read '" + file.relative + "' with read_file before editing it";
    }
    if (seen->second != sha256_hex(existing.content)) {
      return "'" + file.relative + "' changed on disk since you last read it; read it again";
    }
    if (old_text.empty()) {
      return "'old' is empty; give the exact text to replace";
    }
    if (old_text == new_text) {
      return "'old' and 'new' are the same; the edit would change nothing";
    }
    std::size_t matches = count_occurrences(existing.content, old_text);
    if (matches == 0) {
      return "'old' was not found in '" + file.relative + "'";
    }
    if (matches > 1 && !replace_all) {
      return "'old' matches " + std::to_string(matches) + " places in '" + file.relative +
             "'; include more surrounding text to make it unique, or set replace_all";
    }
    return {};
  }
};

}  // namespace

std::unique_ptr<Tool> make_edit_file_tool() { return std::make_unique<EditFileTool>(); }

}  // namespace agent_run
