#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// One resource a server lists (resources/list), or one template of resources
/// (resources/templates/list, where `uri` holds the RFC 6570 template such as `demo://text/{id}`).
struct McpResourceInfo {
  std::string uri;
  std::string name;
  std::string title;        // "" when none
  std::string description;  // "" when none
  std::string mime_type;    // "" when none
  bool is_template = false;
};

/// One page of resources/list or resources/templates/list: its entries (those without a URI are
/// skipped) and its nextCursor.
struct ResourcePage {
  std::vector<McpResourceInfo> resources;
  std::optional<std::string> next_cursor;
};

/// Which list a page comes from: resources/list or resources/templates/list.
enum class ResourceListKind { resources, templates };

/// Reads a page of the list `kind`; an error when it is not a list of that kind at all.
Expected<ResourcePage> read_resource_page(const Json& result, ResourceListKind kind);

/// The entries as a reader (the model) reads them: one line each, URI first.
std::string resource_lines(const std::vector<McpResourceInfo>& resources);

}  // namespace agent_run
