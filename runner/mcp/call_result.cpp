#include "mcp/call_result.h"

#include "base/base64.h"
#include "base/text.h"

#include <vector>

namespace agent_run {

namespace {

std::size_t decoded_size(const std::string& base64) {
  std::size_t padding = 0;
  for (auto c = base64.rbegin(); c != base64.rend() && *c == '=' && padding < 2; ++c) ++padding;
  return base64.size() / 4 * 3 - std::min(padding, base64.size() / 4 * 3);
}

/// Keeps text within what is left of the text cap, noting a cut.
class TextBudget {
 public:
  explicit TextBudget(std::size_t bytes) : m_left(bytes) {}
  std::string take(std::string_view text, bool& truncated) {
    if (text.size() <= m_left) {
      m_left -= text.size();
      return std::string(text);
    }
    truncated = true;
    std::string kept = cap_head_tail(text, m_left, 0);
    m_left = 0;
    return kept;
  }

 private:
  std::size_t m_left;
};

McpContent binary_block(McpContentKind kind, const Json& block, std::size_t cap, bool& truncated) {
  McpContent content;
  content.kind = kind;
  content.mime_type = block.get_string("mimeType");
  std::string data = block.get_string(kind == McpContentKind::resource ? "blob" : "data");
  content.data_bytes = decoded_size(data);
  if (content.data_bytes > cap) {
    content.dropped = true;
    truncated = true;
  } else {
    content.data = std::move(data);
  }
  return content;
}

McpContent resource_block(const Json& block, TextBudget& budget, bool& truncated) {
  const Json* resource = block.find("resource");
  if (!resource || !resource->is_object())
    return McpContent{McpContentKind::text, "[an embedded resource without content]"};
  McpContent content;
  if (resource->find("blob")) {
    bool not_a_cut = false;  // binary resources are only ever noted
    content = binary_block(McpContentKind::resource, *resource, 0, not_a_cut);
  } else {
    content.kind = McpContentKind::resource;
    content.mime_type = resource->get_string("mimeType");
    content.text = budget.take(resource->get_string("text"), truncated);
  }
  content.uri = resource->get_string("uri");
  return content;
}

McpContent link_block(const Json& block) {
  McpContent content;
  content.kind = McpContentKind::resource_link;
  content.uri = block.get_string("uri");
  content.name = block.get_string("title", block.get_string("name"));
  content.description = block.get_string("description");
  content.mime_type = block.get_string("mimeType");
  return content;
}

McpContent read_block(const Json& block, const CallResultLimits& limits, TextBudget& budget, std::size_t& images,
                      bool& truncated) {
  std::string type = block.get_string("type");
  if (type == "text") return McpContent{McpContentKind::text, budget.take(block.get_string("text"), truncated)};
  if (type == "image") {
    std::size_t cap = images < limits.max_images ? limits.max_image_bytes : 0;
    McpContent image = binary_block(McpContentKind::image, block, cap, truncated);
    if (!image.dropped) ++images;
    return image;
  }
  if (type == "audio") {
    bool not_a_cut = false;  // audio is only ever noted
    return binary_block(McpContentKind::audio, block, 0, not_a_cut);
  }
  if (type == "resource") return resource_block(block, budget, truncated);
  if (type == "resource_link") return link_block(block);
  std::string note = "[a content block of type '" + type + "': " + block.dump() + "]";
  return McpContent{McpContentKind::text, budget.take(note, truncated)};
}

}  // namespace

McpCallResult read_call_result(const Json& result, const CallResultLimits& limits) {
  McpCallResult call;
  call.result_bytes = result.dump().size();
  const Json* is_error = result.find("isError");
  call.is_error = is_error && is_error->is_bool() && is_error->as_bool();
  TextBudget budget(limits.max_text_bytes);
  std::size_t images = 0;
  if (const Json* content = result.find("content"); content && content->is_array()) {
    for (const Json& block : content->as_array()) {
      if (!block.is_object()) continue;
      call.content.push_back(read_block(block, limits, budget, images, call.truncated));
    }
  }
  // structuredContent usually repeats a text block, so it has a cap of its own.
  if (const Json* structured = result.find("structuredContent"); structured && !structured->is_null()) {
    if (structured->dump().size() <= limits.max_text_bytes) {
      call.structured = *structured;
    } else {
      call.truncated = true;
    }
  }
  return call;
}

namespace {

bool is_text_type(std::string_view mime) {
  mime = mime.substr(0, mime.find(';'));
  return mime.starts_with("text/") || mime == "application/json" || mime == "application/xml" ||
         mime == "application/yaml" || mime == "application/javascript" || mime.ends_with("+json") ||
         mime.ends_with("+xml");
}

/// One entry of a resources/read result's `contents`.
McpContent resource_content(const Json& entry, const CallResultLimits& limits, TextBudget& budget,
                            std::size_t& images, bool& truncated) {
  const std::string mime = entry.get_string("mimeType");
  McpContent content;
  if (const Json* blob = entry.find("blob"); blob && blob->is_string()) {
    if (mime.starts_with("image/") && images < limits.max_images) {
      content = binary_block(McpContentKind::image, Json::object().set("mimeType", mime).set("data", *blob),
                             limits.max_image_bytes, truncated);
      if (!content.dropped) ++images;
    } else if (Expected<std::string> decoded = base64_decode(blob->as_string());
               decoded && is_text_type(mime) && repair_utf8(*decoded) == *decoded) {
      content.kind = McpContentKind::resource;
      content.mime_type = mime;
      content.text = budget.take(*decoded, truncated);
    } else {
      bool not_a_cut = false;  // other binary contents are only ever noted
      content = binary_block(McpContentKind::resource, entry, 0, not_a_cut);
    }
  } else {
    content.kind = McpContentKind::resource;
    content.mime_type = mime;
    content.text = budget.take(entry.get_string("text"), truncated);
  }
  content.uri = entry.get_string("uri");
  return content;
}

}  // namespace

McpCallResult read_resource_contents(const Json& result, const CallResultLimits& limits) {
  McpCallResult read;
  read.result_bytes = result.dump().size();
  TextBudget budget(limits.max_text_bytes);
  std::size_t images = 0;
  if (const Json* contents = result.find("contents"); contents && contents->is_array()) {
    for (const Json& entry : contents->as_array()) {
      if (entry.is_object()) read.content.push_back(resource_content(entry, limits, budget, images, read.truncated));
    }
  }
  return read;
}

McpCallResult failed_call(std::string why) {
  McpCallResult call;
  call.is_error = true;
  call.error = std::move(why);
  return call;
}

namespace {

std::string with_mime(const McpContent& block) { return block.mime_type.empty() ? "" : " (" + block.mime_type + ")"; }

std::string block_text(const McpContent& block) {
  const std::string bytes = std::to_string(block.data_bytes) + " bytes";
  switch (block.kind) {
    case McpContentKind::text: return block.text;
    case McpContentKind::image:
      return "[image" + with_mime(block) + ", " + bytes + (block.dropped ? ", over the size cap: not shown]" : "]");
    case McpContentKind::audio: return "[audio" + with_mime(block) + ", " + bytes + ": not shown]";
    case McpContentKind::resource:
      if (block.text.empty() && block.data_bytes > 0) {
        return "[resource " + block.uri + with_mime(block) + ", " + bytes + " of binary data: not shown]";
      }
      return "[resource " + block.uri + with_mime(block) + "]\n" + block.text;
    case McpContentKind::resource_link:
      return "[resource link: " + block.name + " <" + block.uri + ">" + with_mime(block) +
             (block.description.empty() ? "" : ": " + block.description) + "]";
  }
  return block.text;
}

}  // namespace

std::string call_result_text(const McpCallResult& result) {
  if (!result.error.empty()) return "the MCP call failed: " + result.error;
  std::vector<std::string> pieces;
  bool has_text = false;
  for (const McpContent& block : result.content) {
    has_text = has_text || block.kind == McpContentKind::text;
    pieces.push_back(block_text(block));
  }
  if (result.structured && !has_text) pieces.push_back(result.structured->dump());
  if (result.truncated) pieces.push_back("[the result was over agent-run's size cap and was cut]");
  if (pieces.empty()) return result.is_error ? "the tool failed and said nothing" : "(the tool returned nothing)";
  return join(pieces, "\n");
}

}  // namespace agent_run
