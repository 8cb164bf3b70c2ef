#include "base/digest.h"
#include "base/text.h"
#include "tools/builtin_tools.h"
#include "tools/diagnostics_hook.h"
#include "tools/edit_checks.h"
#include "tools/file_writing.h"
#include "tools/tool_input.h"
#include "tools/unified_diff.h"

namespace agent_run {

namespace {

/// Writes a whole file, creating it (and its folders) or replacing it.
class WriteFileTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "write_file",
        "Write a whole file in the workspace, creating it and its folders if needed. To change part of an "
        "existing file, use edit_file.",
        object_schema(Json::object()
                          .set("path", property("string", "File path, relative to the workspace"))
                          .set("content", property("string", "The complete new content of the file")),
                      {"path", "content"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session, std::chrono::milliseconds) override {
    auto path = required_string(input, "path");
    auto content = required_string(input, "content");
    if (!path) return failure(path.error().message);
    if (!content) return failure(content.error().message);
    auto file = confine_path(scope.workspace, *path, Access::write, scope.protected_paths);
    if (!file) return failure(file.error().message);
    auto existing = read_existing_file(scope.workspace, *file);
    if (!existing) return failure(existing.error().message);
    auto written = replace_file_content(scope.workspace, *file, *content);
    if (!written) return failure(written.error().message);
    session.reads[file->relative] = sha256_hex(*content);

    FileDiff diff = diff_file(file->relative, existing->content, *content);
    ToolOutput output;
    output.edit =
        EditRecord{.path = file->relative, .lines_added = diff.lines_added, .lines_removed = diff.lines_removed};
    if (!existing->exists) {
      output.content = "Created " + file->relative + " (" + std::to_string(count_lines(*content)) + " lines)\n";
    } else if (diff.text.empty()) {
      output.content = "Wrote " + file->relative + " (unchanged)\n";
    } else {
      output.content = "Wrote " + file->relative + ": " + std::to_string(diff.lines_added) + " additions, " +
                       std::to_string(diff.lines_removed) + " removals\n" + diff.text;
    }
    check_written_file(scope, *file, *existing, *content, output);
    check_after_edit(scope, output);
    return output;
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("write_file", message), true, {}, {}};
  }
};

}  // namespace

std::unique_ptr<Tool> make_write_file_tool() { return std::make_unique<WriteFileTool>(); }

}  // namespace agent_run
