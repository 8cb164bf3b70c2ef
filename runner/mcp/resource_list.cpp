#include "mcp/resource_list.h"

namespace agent_run {

Expected<ResourcePage> read_resource_page(const Json& result, ResourceListKind kind) {
  const bool templates = kind == ResourceListKind::templates;
  const char* key = templates ? "resourceTemplates" : "resources";
  const Json* entries = result.is_object() ? result.find(key) : nullptr;
  if (!entries || !entries->is_array()) return make_error(std::string("the result has no '") + key + "' list");
  ResourcePage page;
  for (const Json& entry : entries->as_array()) {
    if (!entry.is_object()) continue;
    McpResourceInfo resource;
    resource.uri = entry.get_string(templates ? "uriTemplate" : "uri");
    if (resource.uri.empty()) continue;
    resource.name = entry.get_string("name");
    resource.title = entry.get_string("title");
    resource.description = entry.get_string("description");
    resource.mime_type = entry.get_string("mimeType");
    resource.is_template = templates;
    page.resources.push_back(std::move(resource));
  }
  if (const Json* cursor = result.find("nextCursor"); cursor && cursor->is_string() && !cursor->as_string().empty()) {
    page.next_cursor = cursor->as_string();
  }
  return page;
}

std::string resource_lines(const std::vector<McpResourceInfo>& resources) {
  std::string text;
  for (const McpResourceInfo& resource : resources) {
    text += "- " + resource.uri;
    const std::string& name = resource.title.empty() ? resource.name : resource.title;
    if (!name.empty()) text += ": " + name;
    if (!resource.mime_type.empty()) text += " (" + resource.mime_type + ")";
    if (!resource.description.empty()) text += ": " + resource.description;
    text += "\n";
  }
  return text;
}

}  // namespace agent_run
