#include "base/text.h"
#include "net/web_client.h"
#include "net/web_text.h"
#include "tools/builtin_tools.h"
#include "tools/tool_input.h"

#include <algorithm>

namespace agent_run {

namespace {

constexpr std::size_t k_text_head_bytes = 48 * 1024;
constexpr std::size_t k_text_tail_bytes = 8 * 1024;

bool is_html(const std::string& content_type) { return content_type.find("html") != std::string::npos; }

bool is_text(const std::string& content_type) {
  return content_type.empty() || content_type.starts_with("text/") || content_type.find("json") != std::string::npos ||
         content_type.find("xml") != std::string::npos || content_type.find("javascript") != std::string::npos;
}

/// The page as the model reads it: where it came from, its status, and its text.
std::string describe(const WebPage& page) {
  std::string text = "URL: " + page.url + "\n";
  for (const std::string& from : page.redirects) text += "Redirected from: " + from + "\n";
  text += "Status: " + std::to_string(page.status) + " " + page.reason + "\n";
  text += "Content-Type: " + (page.content_type.empty() ? std::string("(none)") : page.content_type) + "\n\n";
  if (!is_text(page.content_type)) {
    return text + "[binary content, " + std::to_string(page.body.size()) + " bytes; not shown]\n";
  }
  std::string body = repair_utf8(page.body);
  if (is_html(page.content_type)) body = html_to_text(body);
  text += cap_head_tail(body, k_text_head_bytes, k_text_tail_bytes);
  if (!text.empty() && text.back() != '\n') text += '\n';
  if (page.truncated) text += "[the page was cut at " + std::to_string(page.body.size()) + " bytes]\n";
  return text;
}

/// Fetches an http(s) page and returns it as readable text; refuses private and loopback addresses.
class WebFetchTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{"web_fetch",
                      "Fetch an http or https URL and return it as readable text (HTML is converted). Private, "
                      "loopback, link-local and other non-public addresses are refused, also after redirects.",
                      object_schema(Json::object().set("url", property("string", "The http or https URL")), {"url"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState&, std::chrono::milliseconds timeout) override {
    auto url = required_string(input, "url");
    if (!url) return failure(url.error().message);
    WebFetchOptions options = scope.web.fetch;
    options.limits.timeout = std::min(options.limits.timeout, timeout);
    auto page = fetch_web_page(*url, options);
    if (!page) return failure(page.error().message);
    return ToolOutput{describe(*page), page->status >= 400, std::nullopt};
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("web_fetch", message), true, {}};
  }
};

}  // namespace

std::unique_ptr<Tool> make_web_fetch_tool() { return std::make_unique<WebFetchTool>(); }

}  // namespace agent_run
