#pragma once

#include "base/json.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// What kind of block a tool result holds.
enum class McpContentKind {
  text,           // text
  image,          // base64 `data` with a `mime_type`: a picture the model can look at
  audio,          // base64 `data`: kept only as a note (models here take no audio)
  resource,       // an embedded resource: `uri`, and `text`, or a binary `data` that is only noted
  resource_link,  // a link to a resource the model may fetch another way: `uri`, `name`
};

/// One content block of a tool result, in neutral terms.
struct McpContent {
  McpContentKind kind = McpContentKind::text;
  std::string text;  // text; resource: its text
  std::string data;  // image, audio, resource blob: base64, as sent (dropped when over the cap)
  std::string mime_type;
  std::string uri;             // resource, resource_link
  std::string name;            // resource_link (title, else name)
  std::string description;     // resource_link
  std::size_t data_bytes = 0;  // the decoded size of `data` as sent, even when it was dropped
  bool dropped = false;        // `data` was over the cap and is not kept
};

/// What a tools/call came to, in neutral terms for the tool layer above. A tool's own failure
/// (isError) and a failed call (a JSON-RPC error, a timeout, a server gone) both set `is_error`;
/// only the second sets `error`.
struct McpCallResult {
  std::vector<McpContent> content;
  std::optional<Json> structured;  // structuredContent, when the server sent one (and it fits the cap)
  bool is_error = false;
  std::string error;             // why the call failed; "" when the tool answered
  std::size_t result_bytes = 0;  // the result as received, in JSON
  bool truncated = false;        // text or data was cut at the caps
  int progress_updates = 0;      // notifications/progress received for the call
};

/// Caps on what one result may bring in.
struct CallResultLimits {
  std::size_t max_text_bytes = 100 * 1024;    // text of every block and structuredContent together
  std::size_t max_image_bytes = 3750 * 1024;  // decoded; the same cap as read_file's images
  std::size_t max_images = 8;
};

/// A tools/call result read into neutral terms, under the caps. Unknown block types become a
/// text note so nothing the server said disappears silently.
McpCallResult read_call_result(const Json& result, const CallResultLimits& limits);

/// A resources/read result in the terms of a tool result, under the same caps: each text content
/// as a `resource` block with its text; a blob of an image type as an image the model can see; a
/// blob of a text type (text/*, JSON, XML, YAML, JavaScript) decoded to its text when it is
/// UTF-8; any other blob noted with its size.
McpCallResult read_resource_contents(const Json& result, const CallResultLimits& limits);

/// A failed call: `why` is the error.
McpCallResult failed_call(std::string why);

/// The result as text for a reader (the model, or a person at `agent-run mcp call`): text blocks
/// as they are; a note for each image, audio clip, embedded resource and resource link; the
/// structuredContent as JSON when no text block came with it; what was cut; why a call failed.
std::string call_result_text(const McpCallResult& result);

}  // namespace agent_run
