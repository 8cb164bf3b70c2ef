#pragma once

#include "support/fixtures.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

namespace agent_run::test {

/// The built-in tools over a temporary workspace, called the way the agent loop calls them.
struct ToolsFixture {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  ToolScope scope;
  SessionState session;
  std::chrono::milliseconds timeout = std::chrono::minutes(2);  // what one call may take
  ToolsFixture() {
    scope.workspace = folder.path();
    scope.environment = {"PATH=/usr/local/bin:/usr/bin:/bin"};
  }

  ToolOutput call(const std::string& tool, Json input) { return tools.find(tool)->run(input, scope, session, timeout); }
  ToolOutput read(const std::string& path) { return call("read_file", Json::object().set("path", path)); }
  ToolOutput edit(const std::string& path, const std::string& old_text, const std::string& new_text) {
    return call("edit_file", Json::object().set("path", path).set("old", old_text).set("new", new_text));
  }
  ToolOutput write(const std::string& path, const std::string& content) {
    return call("write_file", Json::object().set("path", path).set("content", content));
  }
};

}  // namespace agent_run::test
