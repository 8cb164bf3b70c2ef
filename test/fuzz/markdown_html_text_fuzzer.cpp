// libFuzzer target for the Markdown summary's and the HTML report's escapers (report/markdown_text,
// report/html_text). Whatever the bytes (the first picks the byte cap), each keeps its promise:
// markdown_text is one line of valid UTF-8, without control characters, where every character
// Markdown gives a meaning (`|` among them) is backslash-escaped and the text is cut at the cap;
// markdown_quote's lines all start with `>`; markdown_code_block's fence is longer than any run of
// backticks inside; markdown_html_text, html_text and html_attribute hold no raw `<`, `>`, `"` and
// no `&` outside an entity (html_attribute no raw tab or newline either); html_token is letters,
// digits and `-` only.
#include "fuzz_support.h"
#include "report/html_text.h"
#include "report/markdown_text.h"

#include <algorithm>
#include <string>

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

constexpr std::string_view k_markdown_special = "\\`*_[]<>|#~&@!()";

bool has_control_character(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
}

/// Every Markdown character of `line` is escaped; returns the text with the escapes taken out.
std::string unescaped_markdown(std::string_view line) {
  std::string text;
  for (std::size_t at = 0; at < line.size(); ++at) {
    if (line[at] == '\\') {
      require(at + 1 < line.size() && k_markdown_special.find(line[at + 1]) != std::string_view::npos);
      ++at;
    } else {
      require(k_markdown_special.find(line[at]) == std::string_view::npos);
    }
    text += line[at];
  }
  return text;
}

void check_markdown_text(std::string_view text, std::size_t max_bytes) {
  const std::string line = markdown_text(text, max_bytes);
  require(fuzz::is_valid_utf8(line) && !has_control_character(line));
  require(unescaped_markdown(line).size() <= max_bytes + 3);  // the cap, then `…`
}

void check_markdown_quote(std::string_view text, std::size_t max_bytes) {
  const std::string quote = markdown_quote(text, max_bytes);
  require(fuzz::is_valid_utf8(quote));
  require(quote.empty() || quote.back() == '\n');
  for (std::string_view line : fuzz::lines_of(quote)) {
    require(line.starts_with(">"));
    if (line == "> *(cut: the whole text is in report.json)*") continue;
    if (line.size() > 1) {
      require(line.starts_with("> "));
      (void)unescaped_markdown(line.substr(2));
    }
  }
}

void check_code_block(std::string_view text, std::size_t max_bytes) {
  const std::string block = markdown_code_block(text, "text", max_bytes);
  require(fuzz::is_valid_utf8(block));
  const std::size_t fence = block.find_first_not_of('`');
  require(fence >= 3 && block.substr(fence).starts_with("text\n"));
  const std::string closing = "\n" + block.substr(0, fence) + "\n";
  require(block.ends_with(closing));
  const std::string_view body(block.data() + fence + 5, block.size() - fence - 5 - closing.size() + 1);
  require(body.find(block.substr(0, fence)) == std::string_view::npos);
}

void check_html(std::string_view escaped, bool attribute) {
  require(fuzz::is_valid_utf8(escaped));
  require(escaped.find_first_of("<>\"\r") == std::string_view::npos);
  if (attribute) require(escaped.find_first_of("\t\n") == std::string_view::npos);
  require(fuzz::ampersands_are_entities(escaped));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t max_bytes = data[0];
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  check_markdown_text(text, max_bytes);
  check_markdown_quote(text, max_bytes);
  check_code_block(text, max_bytes);
  const std::string summary = markdown_html_text(text, max_bytes);
  check_html(summary, false);
  require(summary.find('\n') == std::string::npos);
  check_html(html_text(text), false);
  check_html(html_attribute(text), true);
  const std::string token = html_token(text);
  require(!token.empty() && token.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") ==
                                std::string::npos);
  return 0;
}
