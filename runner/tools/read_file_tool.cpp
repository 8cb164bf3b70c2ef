#include "base/digest.h"
#include "base/files.h"
#include "tools/builtin_tools.h"
#include "tools/confined_path.h"
#include "tools/tool_input.h"

#include <sys/stat.h>

namespace agent_run {

namespace {

constexpr std::int64_t k_default_line_limit = 2000;
constexpr std::size_t k_max_line_chars = 2000;
constexpr std::uintmax_t k_max_file_bytes = 10 * 1024 * 1024;

/// Reads a text file from the workspace as numbered lines, a page at a time.
class ReadFileTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "read_file",
        "Read a text file from the workspace. Lines come back numbered. Use offset (1-based line) and "
        "limit (number of lines) to page through long files.",
        object_schema(Json::object()
                          .set("path", property("string", "File path, relative to the workspace"))
                          .set("offset", property("integer", "First line to read, 1-based (default 1)"))
                          .set("limit", property("integer", "Number of lines to read (default 2000)")),
                      {"path"})};
  }

  ToolOutput run(const Json& input, ToolContext& context) override {
    auto path = required_string(input, "path");
    auto offset = optional_integer(input, "offset", 1);
    auto limit = optional_integer(input, "limit", k_default_line_limit);
    if (!path) return failure(path.error().message);
    if (!offset || *offset < 1) return failure(offset ? "offset must be at least 1" : offset.error().message);
    if (!limit || *limit < 1) return failure(limit ? "limit must be at least 1" : limit.error().message);
    auto file = confine_path(context.workspace, *path, Access::read, context.protected_paths);
    if (!file) return failure(file.error().message);
    auto content = read_regular_file(*file);
    if (!content) return failure(content.error().message);
    if (content->substr(0, 8192).find('\0') != std::string::npos) {
      return failure("'" + file->relative + "' is a binary file; it is not shown");
    }
    context.reads[file->relative] = sha256_hex(*content);
    return ToolOutput{number_lines(*content, *offset, *limit), false, std::nullopt};
  }

 private:
  static ToolOutput failure(const std::string& message) { return ToolOutput{tool_error_text("read_file", message), true, {}}; }

  static Expected<std::string> read_regular_file(const ConfinedPath& file) {
    struct stat info {};
    if (::stat(file.absolute.c_str(), &info) != 0) {
      return make_error("'" + file.relative + "' does not exist");
    }
    if (S_ISDIR(info.st_mode)) {
      return make_error("'" + file.relative + "' is a directory");
    }
    if (!S_ISREG(info.st_mode)) {
      return make_error("'" + file.relative + "' is not a regular file; it is never opened");
    }
    if (static_cast<std::uintmax_t>(info.st_size) > k_max_file_bytes) {
      return make_error("'" + file.relative + "' is larger than 10 MiB");
    }
    return read_file(file.absolute);
  }

  static std::string number_lines(const std::string& content, std::int64_t offset, std::int64_t limit) {
    std::string out;
    std::int64_t line_number = 0;
    std::size_t start = 0;
    std::int64_t shown_last = 0;
    while (start < content.size()) {
      std::size_t end = content.find('\n', start);
      if (end == std::string::npos) end = content.size();
      ++line_number;
      if (line_number >= offset && line_number < offset + limit) {
        std::string line = content.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.size() > k_max_line_chars) {
          line = line.substr(0, k_max_line_chars) + "... [line cut at " + std::to_string(k_max_line_chars) + " characters]";
        }
        std::string number = std::to_string(line_number);
        out += std::string(number.size() < 6 ? 6 - number.size() : 0, ' ') + number + "\t" + line + "\n";
        shown_last = line_number;
      }
      start = end + 1;
    }
    if (line_number == 0) return "(the file is empty)\n";
    if (shown_last == 0) return "(the file has " + std::to_string(line_number) + " lines; offset is past the end)\n";
    if (shown_last < line_number) {
      out += "[lines " + std::to_string(offset) + "-" + std::to_string(shown_last) + " of " +
             std::to_string(line_number) + "; call again with offset=" + std::to_string(shown_last + 1) +
             " to read more]\n";
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Tool> make_read_file_tool() { return std::make_unique<ReadFileTool>(); }

}  // namespace agent_run
