// Resources: resources/list and resources/templates/list pages read, resources/read contents as a
// tool result; against the real reference server (server-everything over stdio) and a python3
// server of the test's own that offers none.
#include "mcp/resource_list.h"
#include "support/mcp_servers.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

Json json(const std::string& text) {
  auto value = parse_json(text);
  BOOST_REQUIRE(value.has_value());
  return *value;
}

/// A server that offers one tool and no resources: its capabilities hold only `tools`.
constexpr const char* k_server_without_resources = R"(import json, sys
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": message["params"]["protocolVersion"],
              "capabilities": {"tools": {}}, "serverInfo": {"name": "plain", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}})
    elif id is not None:
        send({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}})
)";

bool lists(const std::vector<McpResourceInfo>& resources, const std::string& uri) {
  return std::any_of(resources.begin(), resources.end(), [&](const McpResourceInfo& r) { return r.uri == uri; });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(resource_list)

BOOST_AUTO_TEST_CASE(a_page_keeps_each_entry_with_a_uri_and_its_cursor) {
  Expected<ResourcePage> page = read_resource_page(json(R"({"resources":[
    {"uri":"file:///a","name":"a","title":"The A","mimeType":"text/plain","description":"first"},
    {"name":"no uri"}, 7],"nextCursor":"p2"})"),
                                                   ResourceListKind::resources);
  BOOST_REQUIRE(page.has_value());
  BOOST_REQUIRE(page->resources.size() == 1u);
  BOOST_TEST(page->resources[0].title == "The A");
  BOOST_TEST(page->next_cursor.value_or("") == "p2");
  BOOST_TEST(resource_lines(page->resources) == "- file:///a: The A (text/plain): first\n");
}

BOOST_AUTO_TEST_CASE(a_template_page_reads_uri_templates) {
  Expected<ResourcePage> page = read_resource_page(
      json(R"({"resourceTemplates":[{"uriTemplate":"demo://t/{id}","name":"T"}]})"), ResourceListKind::templates);
  BOOST_REQUIRE(page.has_value());
  BOOST_TEST(page->resources.at(0).uri == "demo://t/{id}");
  BOOST_TEST(page->resources.at(0).is_template);
  BOOST_TEST(!page->next_cursor.has_value());
  BOOST_TEST(!read_resource_page(json(R"({"resources":[]})"), ResourceListKind::templates).has_value());
}

BOOST_AUTO_TEST_CASE(read_contents_decode_text_blobs_show_images_and_note_other_binaries) {
  McpCallResult read = read_resource_contents(json(R"({"contents":[
    {"uri":"a://text","mimeType":"text/plain","text":"plain"},
    {"uri":"a://blob","mimeType":"text/plain","blob":"aGVsbG8="},
    {"uri":"a://png","mimeType":"image/png","blob":"iVBORw0KGgo="},
    {"uri":"a://bin","mimeType":"application/octet-stream","blob":"AAAA"}]})"),
                                              CallResultLimits{});
  BOOST_REQUIRE(read.content.size() == 4u);
  BOOST_TEST((read.content[0].kind == McpContentKind::resource && read.content[0].text == "plain"));
  BOOST_TEST((read.content[1].text == "hello" && read.content[1].uri == "a://blob"));
  BOOST_TEST((read.content[2].kind == McpContentKind::image && read.content[2].data == "iVBORw0KGgo="));
  BOOST_TEST((read.content[3].dropped && read.content[3].data_bytes == 3u));
  BOOST_TEST(call_result_text(read).find("[resource a://bin (application/octet-stream), 3 bytes of binary data") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(everything_lists_its_documents_and_templates) {
  auto client = connect_stdio(everything_command());
  BOOST_TEST(client->offers_resources());
  auto page = client->list_resources(ResourceListKind::resources, std::nullopt, 30s);
  BOOST_REQUIRE_MESSAGE(page.has_value(), (page ? std::string() : page.error().message));
  BOOST_TEST(lists(page->resources, "demo://resource/static/document/instructions.md"));
  auto templates = client->list_resources(ResourceListKind::templates, std::nullopt, 30s);
  BOOST_REQUIRE(templates.has_value());
  BOOST_TEST(lists(templates->resources, "demo://resource/dynamic/text/{resourceId}"));
}

BOOST_AUTO_TEST_CASE(everything_reads_a_document_and_a_blob_resource_as_text) {
  auto client = connect_stdio(everything_command());
  McpCallResult document = client->read_resource("demo://resource/static/document/instructions.md", 30s);
  BOOST_TEST(!document.is_error, document.error);
  BOOST_REQUIRE(document.content.size() == 1u);
  BOOST_TEST(document.content[0].mime_type == "text/markdown");
  BOOST_TEST(!document.content[0].text.empty());
  // A resource link of get-resource-links: base64 of text, read back as the text.
  McpCallResult blob = client->read_resource("demo://resource/dynamic/blob/1", 30s);
  BOOST_REQUIRE(blob.content.size() == 1u);
  BOOST_TEST(blob.content[0].text.find("Resource 1: This is a base64 blob") == 0u, blob.content[0].text);
}

BOOST_AUTO_TEST_CASE(an_unknown_resource_is_a_failed_read_saying_what_the_server_said) {
  auto client = connect_stdio(everything_command());
  McpCallResult read = client->read_resource("demo://no/such/thing", 30s);
  BOOST_TEST(read.is_error);
  BOOST_TEST(read.error.find("the MCP server answered resources/read with") == 0u, read.error);
}

BOOST_AUTO_TEST_CASE(a_server_without_the_resources_capability_offers_none) {
  TempFolder folder;
  auto client = connect_stdio(python_command(folder.write("server.py", k_server_without_resources)));
  BOOST_TEST(!client->offers_resources());
}

BOOST_AUTO_TEST_SUITE_END()
