#include "support/fixtures.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// The built-in tools over a temporary workspace.
struct ToolsFixture {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  ToolScope scope;
  SessionState session;
  std::chrono::milliseconds timeout = std::chrono::minutes(2);  // what one call may take
  ToolsFixture() { scope.workspace = folder.path(); }

  ToolOutput call(const std::string& tool, Json input) { return tools.find(tool)->run(input, scope, session, timeout); }
  ToolOutput read(const std::string& path) { return call("read_file", Json::object().set("path", path)); }
  ToolOutput edit(const std::string& path, const std::string& old_text, const std::string& new_text) {
    return call("edit_file", Json::object().set("path", path).set("old", old_text).set("new", new_text));
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(file_tools, ToolsFixture)

BOOST_AUTO_TEST_CASE(read_file_numbers_lines_and_pages) {
  folder.write("a.txt", "alpha\nbeta\ngamma\n");
  BOOST_TEST(read("a.txt").content == "     1\talpha\n     2\tbeta\n     3\tgamma\n");
  ToolOutput page = call("read_file", Json::object().set("path", "a.txt").set("offset", 2).set("limit", 1));
  BOOST_TEST(page.content == "     2\tbeta\n[lines 2-2 of 3; call again with offset=3 to read more]\n");
}

BOOST_AUTO_TEST_CASE(read_file_refuses_binary_files_and_folders) {
  folder.write("blob.bin", std::string("\x89PNG\0\0\x01", 7));
  ToolOutput binary = read("blob.bin");
  BOOST_TEST(binary.is_error);
  BOOST_TEST(binary.content ==
             "read_file: 'blob.bin' is a binary file; read_file shows text, and PNG, JPEG, GIF and WebP images");
  std::filesystem::create_directory(folder.path() / "sub");
  BOOST_TEST(read("sub").content == "read_file: 'sub' is a directory");
}

BOOST_AUTO_TEST_CASE(edit_file_requires_a_prior_read) {
  folder.write("a.txt", "x = 1\n");
  ToolOutput output = edit("a.txt", "1", "2");
  BOOST_TEST(output.is_error);
  BOOST_TEST(output.content == "edit_file: read 'a.txt' with read_file before editing it");
  BOOST_TEST(folder.read("a.txt") == "x = 1\n");
}

BOOST_AUTO_TEST_CASE(edit_file_refuses_a_file_changed_since_it_was_read) {
  folder.write("a.txt", "x = 1\n");
  read("a.txt");
  folder.write("a.txt", "x = 1\ny = 2\n");
  BOOST_TEST(edit("a.txt", "x = 1", "x = 3").content ==
             "edit_file: 'a.txt' changed on disk since you last read it; read it again");
}

BOOST_AUTO_TEST_CASE(edit_file_refuses_ambiguous_matches_and_no_ops) {
  folder.write("a.txt", "a\na\n");
  read("a.txt");
  BOOST_TEST(edit("a.txt", "a", "b").content ==
             "edit_file: 'old' matches 2 places in 'a.txt'; include more surrounding text to make it unique, or set "
             "replace_all");
  BOOST_TEST(edit("a.txt", "a", "a").content ==
             "edit_file: 'old' and 'new' are the same; the edit would change nothing");
  BOOST_TEST(edit("a.txt", "zzz", "b").content == "edit_file: 'old' was not found in 'a.txt'");
  ToolOutput all =
      call("edit_file", Json::object().set("path", "a.txt").set("old", "a").set("new", "b").set("replace_all", true));
  BOOST_TEST(!all.is_error);
  BOOST_TEST(folder.read("a.txt") == "b\nb\n");
}

BOOST_AUTO_TEST_CASE(edit_file_returns_a_unified_diff) {
  folder.write("a.py", "one\ntwo\nthree\nfour\nfive\n");
  read("a.py");
  ToolOutput output = edit("a.py", "three", "THREE");
  BOOST_TEST(output.content ==
             "Edited a.py: 1 additions, 1 removals\n--- a/a.py\n+++ b/a.py\n@@ -1,5 +1,5 @@\n one\n "
             "two\n-three\n+THREE\n four\n five\n");
  BOOST_REQUIRE(output.edit.has_value());
  BOOST_TEST(output.edit->lines_added == 1);
}

BOOST_AUTO_TEST_CASE(write_file_creates_folders_and_diffs_an_overwrite) {
  ToolOutput created = call("write_file", Json::object().set("path", "src/new/b.txt").set("content", "hi\n"));
  BOOST_TEST(created.content == "Created src/new/b.txt (1 lines)\n");
  BOOST_TEST(folder.read("src/new/b.txt") == "hi\n");
  ToolOutput replaced = call("write_file", Json::object().set("path", "src/new/b.txt").set("content", "ho\n"));
  BOOST_TEST(replaced.content ==
             "Wrote src/new/b.txt: 1 additions, 1 removals\n--- a/src/new/b.txt\n+++ b/src/new/b.txt\n@@ -1 +1 "
             "@@\n-hi\n+ho\n");
}

BOOST_AUTO_TEST_CASE(paths_outside_the_workspace_are_refused) {
  TempFolder outside;
  outside.write("secret.txt", "s3cret\n");
  BOOST_TEST(
      read("../" + outside.path().filename().string() + "/secret.txt").content.find("is outside the workspace") !=
      std::string::npos);
  BOOST_TEST(read((outside.path() / "secret.txt").string()).content ==
             "read_file: '" + (outside.path() / "secret.txt").string() + "' is outside the workspace");
  std::filesystem::create_directory_symlink(outside.path(), folder.path() / "link");
  BOOST_TEST(read("link/secret.txt").content ==
             "read_file: 'link/secret.txt' leads outside the workspace through a symlink");
  ToolOutput through_link = call("write_file", Json::object().set("path", "link/new.txt").set("content", "x"));
  BOOST_TEST(through_link.is_error);
  BOOST_TEST(!std::filesystem::exists(outside.path() / "new.txt"));
}

BOOST_AUTO_TEST_CASE(git_folder_and_protected_files_are_never_written) {
  folder.write(".git/config", "[core]\n");
  folder.write("policy.yaml", "version: 1\n");
  scope.protected_paths.push_back(folder.path() / "policy.yaml");
  BOOST_TEST(call("write_file", Json::object().set("path", ".git/hooks/pre-commit").set("content", "x")).content ==
             "write_file: '.git/hooks/pre-commit' is inside .git/, which is never written");
  BOOST_TEST(call("write_file", Json::object().set("path", "./policy.yaml").set("content", "x")).content ==
             "write_file: './policy.yaml' is protected and never written");
  BOOST_TEST(folder.read("policy.yaml") == "version: 1\n");
}

BOOST_AUTO_TEST_CASE(nul_bytes_and_bad_input_get_a_clean_error) {
  BOOST_TEST(read(std::string("a\0b", 3)).content == "read_file: path contains a NUL byte");
  BOOST_TEST(call("read_file", Json::object()).content == "read_file: missing required parameter 'path'");
  BOOST_TEST(call("read_file", Json::object().set("path", 3)).content ==
             "read_file: parameter 'path' must be a string, got 3");
}

BOOST_AUTO_TEST_CASE(bash_runs_in_the_workspace_and_reports_the_exit_code) {
  folder.write("here.txt", "");
  ToolOutput output = call("bash", Json::object().set("command", "ls; echo oops >&2; exit 3"));
  BOOST_TEST(output.is_error);
  BOOST_TEST(output.content == "here.txt\noops\n[exit code 3]\n");
}

BOOST_AUTO_TEST_CASE(bash_timeout_kills_the_command) {
  // A longer timeout on a machine so loaded that the shell had not echoed before the timeout.
  for (auto [milliseconds, text] : {std::pair{300, "300ms"}, {1000, "1s"}, {5000, "5s"}, {30000, "30s"}}) {
    timeout = std::chrono::milliseconds(milliseconds);
    ToolOutput output = call("bash", Json::object().set("command", "echo start; sleep 1000"));
    if (!output.content.starts_with("start\n") && milliseconds < 30000) continue;
    BOOST_TEST(output.is_error);
    BOOST_TEST(output.content == "start\n[timed out after " + std::string(text) + "; its process group was killed]\n");
    break;
  }
}

BOOST_AUTO_TEST_SUITE_END()
