#include "task/mcp_server_reading.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

namespace {

/// The servers of `yaml` (a file holding `mcp_servers:`), or the checker's error text.
struct Read {
  std::vector<McpServerSpec> servers;
  std::string error;
};

Read read(const std::string& yaml) {
  YamlDocument document = parse_yaml(yaml);
  BOOST_REQUIRE(document.root.has_value());
  YamlChecker checker("tasks/x.yaml");
  Read result;
  result.servers = read_mcp_servers(*document.root->find("mcp_servers"), checker, "tasks/x.yaml");
  if (!checker.ok()) result.error = checker.error().message;
  return result;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mcp_server_reading)

BOOST_AUTO_TEST_CASE(a_stdio_entry_reads_command_args_env_cwd_and_sandbox) {
  Read servers = read(R"(mcp_servers:
  fs:
    command: npx
    args: ["@modelcontextprotocol/server-filesystem", "."]
    env: {TOKEN: "${GITHUB_TOKEN}", LEVEL: debug}
    cwd: tools
    sandbox: off
    required: true
    startup_timeout: 45s
)");
  BOOST_REQUIRE_MESSAGE(servers.error.empty(), servers.error);
  BOOST_REQUIRE(servers.servers.size() == 1u);
  const McpServerSpec& fs = servers.servers[0];
  BOOST_TEST(fs.name == "fs");
  BOOST_TEST(fs.origin == "tasks/x.yaml:2:3");
  BOOST_TEST(fs.command == (std::vector<std::string>{"npx", "@modelcontextprotocol/server-filesystem", "."}));
  BOOST_REQUIRE(fs.env.size() == 2u);
  BOOST_TEST(fs.env[0].second == "${GITHUB_TOKEN}");  // kept as written: filled in only at start
  BOOST_TEST(fs.cwd->string() == "tools");
  BOOST_TEST((fs.sandbox == McpSandbox::off));
  BOOST_TEST(fs.required);
  BOOST_TEST(fs.startup_timeout->count() == 45000);
}

BOOST_AUTO_TEST_CASE(an_http_entry_reads_url_and_headers) {
  Read servers = read(
      "mcp_servers:\n  hosted: {url: \"https://mcp.example.com/mcp\", headers: {Authorization: \"Bearer ${T}\"}}\n");
  BOOST_REQUIRE_MESSAGE(servers.error.empty(), servers.error);
  BOOST_TEST(servers.servers[0].url == "https://mcp.example.com/mcp");
  BOOST_TEST(servers.servers[0].headers[0].first == "Authorization");
  BOOST_TEST(!servers.servers[0].is_stdio());
  BOOST_TEST(!servers.servers[0].required);
}

BOOST_AUTO_TEST_CASE(names_that_could_make_tool_names_collide_are_refused_where_they_stand) {
  Read servers = read("mcp_servers:\n  git__hub: {command: x}\n  _x: {command: x}\n  a*: {command: x}\n");
  BOOST_TEST(servers.error ==
             "tasks/x.yaml:2:3: the MCP server name 'git__hub' starts or ends with '_' or holds '__', so "
             "mcp__SERVER__TOOL names with it could be read as another server's\n"
             "tasks/x.yaml:3:3: the MCP server name '_x' starts or ends with '_' or holds '__', so "
             "mcp__SERVER__TOOL names with it could be read as another server's\n"
             "tasks/x.yaml:4:3: the MCP server name 'a*' may not hold '*'");
}

BOOST_AUTO_TEST_CASE(an_entry_needs_exactly_one_kind) {
  Read neither = read("mcp_servers:\n  s: {args: [x]}\n");
  BOOST_TEST(neither.error ==
             "tasks/x.yaml:2:6: 'mcp_servers.s' needs either 'command' (a stdio server) or 'url' "
             "(streamable HTTP)");
  Read both = read("mcp_servers:\n  s: {command: x, url: \"http://h/\"}\n");
  BOOST_TEST(both.error.find("not both") != std::string::npos, both.error);
}

BOOST_AUTO_TEST_CASE(keys_of_the_other_kind_and_unknown_keys_are_errors) {
  Read servers = read("mcp_servers:\n  s:\n    url: \"http://127.0.0.1/mcp\"\n    args: [x]\n    header: {}\n");
  BOOST_TEST(servers.error.find("tasks/x.yaml:5:5: unknown key 'header' in 'mcp_servers.s'") != std::string::npos,
             servers.error);
  BOOST_TEST(servers.error.find("tasks/x.yaml:4:5: 'mcp_servers.s.args' is for stdio servers (command); this one has "
                                "'url'") != std::string::npos,
             servers.error);
}

BOOST_AUTO_TEST_CASE(bad_values_are_named_with_their_position) {
  Read servers = read(R"(mcp_servers:
  a: {command: [npx, x]}
  b: {url: "ftp://h/"}
  c: {command: x, env: {K: [1]}, required: yes}
  d: {command: x, env: {K: "${BROKEN"}}
)");
  BOOST_TEST(servers.error.find("tasks/x.yaml:2:16: 'mcp_servers.a.command' is the program alone; put its arguments "
                                "in 'args'") != std::string::npos,
             servers.error);
  BOOST_TEST(servers.error.find("tasks/x.yaml:3:12: 'mcp_servers.b.url' must start with http:// or https://") !=
                 std::string::npos,
             servers.error);
  BOOST_TEST(servers.error.find("'mcp_servers.c.env.K' must be a text value, got a list") != std::string::npos,
             servers.error);
  BOOST_TEST(servers.error.find("mcp_servers.c.required") != std::string::npos, servers.error);
  BOOST_TEST(servers.error.find("'mcp_servers.d.env.K' holds '${BROKEN', which is not a ${NAME} reference") !=
                 std::string::npos,
             servers.error);
}

BOOST_AUTO_TEST_SUITE_END()
