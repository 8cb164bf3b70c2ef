// notifications/tools/list_changed, from a python3 server the test writes: a change announced
// while the list is read is read again, and a change later shows in the generation count.
#include "support/mcp_servers.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// A server with one tool, `grow`, that adds a tool and announces it; the first tools/list also
/// announces a change (as server-everything does) before it answers.
constexpr const char* k_growing_server = R"(import json, sys
tools = ["grow"]
lists = 0
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": message["params"]["protocolVersion"],
              "capabilities": {"tools": {"listChanged": True}}}})
    elif method == "tools/list":
        lists += 1
        if lists == 1:
            tools.append("late")
            send(changed)
        send({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in tools]}})
    elif method == "tools/call":
        tools.append("tool%d" % len(tools))
        send(changed)
        send({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "lists so far: %d" % lists}]}})
    elif id is not None:
        send({"jsonrpc": "2.0", "id": id, "result": {}})
)";

std::vector<std::string> names(const std::vector<McpToolInfo>& tools) {
  std::vector<std::string> out;
  for (const McpToolInfo& tool : tools) out.push_back(tool.name);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_list_changes)

BOOST_AUTO_TEST_CASE(a_change_announced_while_listing_is_listed_again) {
  TempFolder folder;
  auto client = connect_stdio(python_command(folder.write("server.py", k_growing_server)));
  auto tools = client->list_tools();
  BOOST_REQUIRE(tools.has_value());
  BOOST_TEST(names(*tools) == (std::vector<std::string>{"grow", "late"}));
  McpCallResult asked = client->call_tool("grow", Json::object(), 30s);
  BOOST_TEST(asked.content.at(0).text == "lists so far: 2");  // the first list, and the one after its change
}

BOOST_AUTO_TEST_CASE(a_later_change_shows_in_the_generation_and_the_next_list) {
  TempFolder folder;
  auto client = connect_stdio(python_command(folder.write("server.py", k_growing_server)));
  BOOST_REQUIRE(client->list_tools().has_value());
  std::uint64_t before = client->tools_generation();
  (void)client->call_tool("grow", Json::object(), 30s);
  BOOST_TEST(client->tools_generation() == before + 1);  // announced before the call's answer
  auto tools = client->list_tools();
  BOOST_REQUIRE(tools.has_value());
  BOOST_TEST(names(*tools) == (std::vector<std::string>{"grow", "late", "tool2"}));
}

BOOST_AUTO_TEST_CASE(a_list_says_which_generation_it_is_current_for) {
  TempFolder folder;
  auto client = connect_stdio(python_command(folder.write("server.py", k_growing_server)));
  std::uint64_t listed_at = 99;
  BOOST_REQUIRE(client->list_tools(&listed_at).has_value());
  // The change announced during the first read was read again: the list is current, nothing to redo.
  BOOST_TEST(listed_at == client->tools_generation());
  (void)client->call_tool("grow", Json::object(), 30s);
  BOOST_TEST(client->tools_generation() == listed_at + 1);  // a later change: the list is stale
}

BOOST_AUTO_TEST_SUITE_END()
