#include "base/safe_open.h"
#include "tools_fixture.h"

#include <fcntl.h>
#include <sys/stat.h>

using namespace agent_run;
using namespace agent_run::test;

BOOST_FIXTURE_TEST_SUITE(edit_and_write, ToolsFixture)

BOOST_AUTO_TEST_CASE(replace_all_reports_each_change_in_its_own_hunk) {
  std::string text;
  for (int i = 1; i <= 30; ++i) text += "line " + std::to_string(i) + (i == 2 || i == 25 ? " old" : "") + "\n";
  folder.write("a.txt", text);
  read("a.txt");
  ToolOutput output = call(
      "edit_file", Json::object().set("path", "a.txt").set("old", " old").set("new", " new").set("replace_all", true));
  BOOST_TEST(
      output.content ==
      "Edited a.txt: 2 additions, 2 removals\n--- a/a.txt\n+++ b/a.txt\n"
      "@@ -1,5 +1,5 @@\n line 1\n-line 2 old\n+line 2 new\n line 3\n line 4\n line 5\n"
      "@@ -22,7 +22,7 @@\n line 22\n line 23\n line 24\n-line 25 old\n+line 25 new\n line 26\n line 27\n line 28\n");
  BOOST_REQUIRE(output.edit.has_value());
  BOOST_TEST(output.edit->lines_added == 2);
  BOOST_TEST(output.edit->lines_removed == 2);
}

BOOST_AUTO_TEST_CASE(an_edit_after_the_agents_own_write_needs_no_new_read) {
  write("b.txt", "one\ntwo\n");
  ToolOutput output = edit("b.txt", "two", "three");
  BOOST_TEST(!output.is_error);
  BOOST_TEST(folder.read("b.txt") == "one\nthree\n");
}

BOOST_AUTO_TEST_CASE(an_edit_of_a_missing_file_points_to_write_file) {
  BOOST_TEST(edit("none.txt", "a", "b").content == "edit_file: 'none.txt' does not exist; use write_file to create it");
}

BOOST_AUTO_TEST_CASE(a_write_keeps_the_files_permissions) {
  folder.write("run.sh", "#!/bin/sh\necho hi\n");
  std::filesystem::permissions(folder.path() / "run.sh", std::filesystem::perms(0755));
  write("run.sh", "#!/bin/sh\necho bye\n");
  struct stat info {};
  BOOST_REQUIRE(::stat((folder.path() / "run.sh").c_str(), &info) == 0);
  BOOST_TEST((info.st_mode & 07777) == 0755u);
  BOOST_TEST(folder.read("run.sh") == "#!/bin/sh\necho bye\n");
}

BOOST_AUTO_TEST_CASE(a_write_replaces_a_hard_link_instead_of_writing_through_it) {
  TempFolder outside;
  outside.write("shared.txt", "outside\n");
  std::filesystem::create_hard_link(outside.path() / "shared.txt", folder.path() / "shared.txt");
  write("shared.txt", "changed\n");
  BOOST_TEST(folder.read("shared.txt") == "changed\n");
  BOOST_TEST(outside.read("shared.txt") == "outside\n");
}

BOOST_AUTO_TEST_CASE(a_fifo_is_never_written_or_read_for_an_edit) {
  BOOST_REQUIRE(::mkfifo((folder.path() / "pipe").c_str(), 0600) == 0);
  BOOST_TEST(write("pipe", "x").content == "write_file: 'pipe' is not a regular file; it is never written");
  BOOST_TEST(edit("pipe", "a", "b").content == "edit_file: 'pipe' is not a regular file; it is never written");
}

BOOST_AUTO_TEST_CASE(a_symlinked_file_inside_is_edited_at_its_target) {
  folder.write("real.py", "x = 1\n");
  std::filesystem::create_symlink("real.py", folder.path() / "alias.py");
  read("alias.py");
  ToolOutput output = edit("alias.py", "x = 1", "x = 2");
  BOOST_TEST(output.content.rfind("Edited real.py: 1 additions, 1 removals\n", 0) == 0);
  BOOST_TEST(std::filesystem::is_symlink(folder.path() / "alias.py"));
  BOOST_TEST(folder.read("real.py") == "x = 2\n");
}

BOOST_AUTO_TEST_CASE(a_symlinked_file_leading_outside_is_neither_read_nor_written) {
  TempFolder outside;
  outside.write("target.txt", "secret\n");
  std::filesystem::create_symlink(outside.path() / "target.txt", folder.path() / "escape.txt");
  BOOST_TEST(read("escape.txt").content == "read_file: 'escape.txt' leads outside the workspace through a symlink");
  BOOST_TEST(write("escape.txt", "x").content ==
             "write_file: 'escape.txt' leads outside the workspace through a symlink");
  BOOST_TEST(outside.read("target.txt") == "secret\n");
}

BOOST_AUTO_TEST_CASE(dot_dot_and_absolute_paths_outside_are_refused) {
  BOOST_TEST(read("src/../../etc/passwd").content == "read_file: 'src/../../etc/passwd' is outside the workspace");
  BOOST_TEST(write("/etc/agent-run-test", "x").content == "write_file: '/etc/agent-run-test' is outside the workspace");
  folder.write("in.txt", "ok\n");
  BOOST_TEST(read((folder.path() / "in.txt").string()).content == "     1\tok\n");  // absolute, but inside
}

BOOST_AUTO_TEST_CASE(overlong_paths_get_a_clean_error) {
  BOOST_TEST(write(std::string(300, 'a'), "x").content ==
             "write_file: a part of the path is too long (300 bytes; at most 255)");
  std::string deep;
  for (int i = 0; i < 500; ++i) deep += "abcdefgh/";
  BOOST_TEST(read(deep + "x").content == "read_file: path is too long (4501 bytes)");
}

BOOST_AUTO_TEST_CASE(git_folders_are_never_written_at_any_depth) {
  BOOST_TEST(write("vendor/lib/.git/config", "x").content ==
             "write_file: 'vendor/lib/.git/config' is inside .git/, which is never written");
  BOOST_TEST(!std::filesystem::exists(folder.path() / "vendor"));
}

BOOST_AUTO_TEST_CASE(a_parent_swapped_for_a_symlink_after_the_check_is_not_followed) {
  // confine_path has already resolved the path; the open itself must still refuse a symlink in it.
  TempFolder outside;
  outside.write("secret.txt", "s3cret\n");
  std::filesystem::create_directory_symlink(outside.path(), folder.path() / "dir");
  auto root = open_workspace(folder.path());
  BOOST_REQUIRE(root.has_value());
  auto by_kernel = open_beneath(root->get(), "dir/secret.txt", O_RDONLY);
  auto by_walk = open_by_walking(root->get(), "dir/secret.txt", O_RDONLY);
  BOOST_TEST(!by_kernel.has_value());
  BOOST_TEST(!by_walk.has_value());
  BOOST_TEST(by_walk.error().message == "'dir/secret.txt' leads outside the workspace through a symlink");
  BOOST_TEST(!write_beneath(folder.path(), "dir/new.txt", "x").has_value());
  BOOST_TEST(!std::filesystem::exists(outside.path() / "new.txt"));
  folder.write("ok/inside.txt", "fine\n");
  BOOST_TEST(open_by_walking(root->get(), "ok/inside.txt", O_RDONLY).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
