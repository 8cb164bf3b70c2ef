#include "base/base64.h"
#include "base/digest.h"
#include "base/safe_open.h"
#include "tools/hidden_files.h"
#include "tools/builtin_tools.h"
#include "tools/confined_path.h"
#include "tools/image_file.h"
#include "tools/tool_input.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace agent_run {

namespace {

constexpr std::int64_t k_default_line_limit = 2000;
constexpr std::size_t k_max_line_bytes = 2000;
constexpr std::size_t k_max_page_bytes = 100 * 1024;
constexpr std::size_t k_binary_probe_bytes = 8192;
constexpr std::size_t k_chunk_bytes = 64 * 1024;

/// Takes a file a chunk at a time and keeps, numbered, the lines of one page: the file is never held
/// whole in memory, and a long line is kept only up to its cut.
class PageReader {
 public:
  PageReader(std::int64_t offset, std::int64_t limit) : m_offset(offset), m_limit(limit) {}

  void feed(std::string_view chunk) {
    std::size_t start = 0;
    while (start < chunk.size()) {
      std::size_t newline = chunk.find('\n', start);
      std::size_t end = newline == std::string_view::npos ? chunk.size() : newline;
      keep(chunk.substr(start, end - start));
      if (newline == std::string_view::npos) break;
      end_line();
      start = newline + 1;
    }
  }

  void finish() {
    if (m_open_line) end_line();  // a last line without "\n"
  }

  std::string text() const {
    if (m_lines == 0) return "(the file is empty)\n";
    if (m_shown_last == 0) return "(the file has " + std::to_string(m_lines) + " lines; offset is past the end)\n";
    std::string out = m_out;
    if (m_shown_last < m_lines) {
      out += "[lines " + std::to_string(m_offset) + "-" + std::to_string(m_shown_last) + " of " +
             std::to_string(m_lines) + "; call again with offset=" + std::to_string(m_shown_last + 1) +
             " to read more]\n";
    }
    return out;
  }

 private:
  bool in_page(std::int64_t number) const { return number >= m_offset && number - m_offset < m_limit && !m_page_full; }

  void keep(std::string_view piece) {
    m_open_line = true;
    m_line_bytes += piece.size();
    if (in_page(m_lines + 1) && m_line.size() <= k_max_line_bytes) {
      m_line.append(piece.substr(0, k_max_line_bytes + 4 - std::min(m_line.size(), k_max_line_bytes + 4)));
    }
  }

  void end_line() {
    ++m_lines;
    if (in_page(m_lines)) show(m_lines);
    m_line.clear();
    m_line_bytes = 0;
    m_open_line = false;
  }

  void show(std::int64_t number) {
    std::string line = m_line;
    std::size_t full = m_line_bytes;
    if (full > 0 && full <= line.size() && line.back() == '\r') {
      line.pop_back();
      --full;
    }
    if (full > k_max_line_bytes) {
      std::size_t cut = k_max_line_bytes;
      while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
      line =
          line.substr(0, cut) + "... [line cut at " + std::to_string(cut) + " of " + std::to_string(full) + " bytes]";
    }
    std::string label = std::to_string(number);
    std::string entry = std::string(label.size() < 6 ? 6 - label.size() : 0, ' ') + label + "\t" + line + "\n";
    if (m_shown_last > 0 && m_out.size() + entry.size() > k_max_page_bytes) {
      m_page_full = true;  // the page ends here; the footer says where to go on
      return;
    }
    m_out += entry;
    m_shown_last = number;
  }

  std::int64_t m_offset;
  std::int64_t m_limit;
  std::int64_t m_lines = 0;       // lines seen so far
  std::int64_t m_shown_last = 0;  // the last line on the page
  std::string m_line;             // the current line, up to its cut
  std::size_t m_line_bytes = 0;   // its full length
  bool m_open_line = false;       // bytes since the last "\n"
  bool m_page_full = false;
  std::string m_out;
};

/// Reads up to `size` bytes (fewer at the end of the file).
Expected<std::string> read_some(int fd, std::size_t size) {
  std::string bytes(size, '\0');
  std::size_t done = 0;
  while (done < size) {
    ssize_t n = ::read(fd, bytes.data() + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(std::strerror(errno));
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

/// Reads a text file as numbered lines, a page at a time; shows an image as a picture.
class ReadFileTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{
        "read_file",
        "Read a file from the workspace. Text comes back as numbered lines; use offset (1-based line) and limit "
        "(number of lines) to page through long files. A PNG, JPEG, GIF or WebP image comes back as a picture.",
        object_schema(Json::object()
                          .set("path", property("string", "File path, relative to the workspace"))
                          .set("offset", property("integer", "First line to read, 1-based (default 1)"))
                          .set("limit", property("integer", "Number of lines to read (default 2000)")),
                      {"path"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session, std::chrono::milliseconds) override {
    auto path = required_string(input, "path");
    auto offset = optional_integer(input, "offset", 1);
    auto limit = optional_integer(input, "limit", k_default_line_limit);
    if (!path) return failure(path.error().message);
    if (!offset || *offset < 1) return failure(offset ? "offset must be at least 1" : offset.error().message);
    if (!limit || *limit < 1) return failure(limit ? "limit must be at least 1" : limit.error().message);
    auto where = confine_path(scope.workspace, *path, Access::read, scope.protected_paths);
    if (!where) return failure(where.error().message);
    auto file = open_regular_file(scope.workspace, where->relative);
    if (!file) return failure(file.error().message);
    if (const HiddenPaths hidden = hidden_paths(scope); hidden.rule_of_file) {
      if (std::string rule = hidden.rule_of_file(file->info); !rule.empty()) {
        return failure("'" + where->relative + "' is a file the policy hides (rule '" + rule + "'); it was not read");
      }
    }
    auto head = read_some(file->fd.get(), k_chunk_bytes);
    if (!head) return failure("cannot read '" + where->relative + "': " + head.error().message);
    if (auto kind = image_kind(*head)) return read_image(*file, *where, *kind, std::move(*head), session);
    if (head->substr(0, k_binary_probe_bytes).find('\0') != std::string::npos) {
      return failure("'" + where->relative +
                     "' is a binary file; read_file shows text, and PNG, JPEG, GIF and WebP images");
    }
    PageReader page(*offset, *limit);
    Sha256 hash;
    for (std::string chunk = std::move(*head); !chunk.empty();) {
      page.feed(chunk);
      hash.update(chunk);
      auto next = read_some(file->fd.get(), k_chunk_bytes);
      if (!next) return failure("cannot read '" + where->relative + "': " + next.error().message);
      chunk = std::move(*next);
    }
    page.finish();
    session.reads[where->relative] = hash.hex();
    return ToolOutput{page.text(), false, {}, {}};
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("read_file", message), true, {}, {}};
  }

  static ToolOutput read_image(const OpenFile& file, const ConfinedPath& where, const ImageKind& kind,
                               std::string bytes, SessionState& session) {
    const auto size = static_cast<std::size_t>(file.info.st_size);
    if (size > k_max_image_bytes) {
      return failure("'" + where.relative + "' is a " + kind.name + " image of " + std::to_string(size) +
                     " bytes; images over " + std::to_string(k_max_image_bytes) + " bytes are not shown");
    }
    auto rest = read_some(file.fd.get(), k_max_image_bytes + 1 - std::min(bytes.size(), k_max_image_bytes));
    if (!rest) return failure("cannot read '" + where.relative + "': " + rest.error().message);
    bytes += *rest;
    if (bytes.size() > k_max_image_bytes) return failure("'" + where.relative + "' grew while it was read; try again");
    session.reads[where.relative] = sha256_hex(bytes);
    ToolOutput output;
    output.content = "Image " + where.relative + " (" + kind.name + ", " + std::to_string(bytes.size()) + " bytes)\n";
    output.images.push_back(ImageBlock{kind.media_type, base64_encode(bytes)});
    return output;
  }
};

}  // namespace

std::unique_ptr<Tool> make_read_file_tool() { return std::make_unique<ReadFileTool>(); }

}  // namespace agent_run
