#include "tools/unified_diff.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

BOOST_AUTO_TEST_SUITE(unified_diff)

BOOST_AUTO_TEST_CASE(nothing_changed_gives_no_diff) {
  FileDiff diff = diff_file("a", "x\n", "x\n");
  BOOST_TEST(diff.text.empty());
  BOOST_TEST(diff.lines_added == 0);
}

BOOST_AUTO_TEST_CASE(a_new_file_is_all_additions) {
  FileDiff diff = diff_file("n.txt", "", "a\nb\n");
  BOOST_TEST(diff.text == "--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n");
  BOOST_TEST(diff.lines_added == 2);
}

BOOST_AUTO_TEST_CASE(a_missing_final_newline_is_marked) {
  FileDiff diff = diff_file("f", "a\nb", "a\nc");
  BOOST_TEST(
      diff.text ==
      "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
}

BOOST_AUTO_TEST_CASE(close_changes_share_a_hunk_and_distant_ones_do_not) {
  std::string before;
  for (int i = 1; i <= 20; ++i) before += std::to_string(i) + "\n";
  std::string after = before;
  after.replace(after.find("3\n"), 2, "three\n");
  after.replace(after.find("\n9\n") + 1, 2, "nine\n");  // 6 lines after: same hunk
  after.replace(after.find("\n19\n") + 1, 3, "");       // far away: its own hunk
  FileDiff diff = diff_file("n", before, after);
  BOOST_TEST(diff.text ==
             "--- a/n\n+++ b/n\n@@ -1,12 +1,12 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n 7\n 8\n-9\n+nine\n 10\n 11\n 12\n"
             "@@ -16,5 +16,4 @@\n 16\n 17\n 18\n-19\n 20\n");
  BOOST_TEST(diff.lines_added == 2);
  BOOST_TEST(diff.lines_removed == 3);
}

BOOST_AUTO_TEST_CASE(a_moved_line_is_one_removal_and_one_addition) {
  FileDiff diff = diff_file("m", "a\nb\nc\nd\n", "b\nc\nd\na\n");
  BOOST_TEST(diff.lines_added == 1);
  BOOST_TEST(diff.lines_removed == 1);
  BOOST_TEST(diff.text == "--- a/m\n+++ b/m\n@@ -1,4 +1,4 @@\n-a\n b\n c\n d\n+a\n");
}

BOOST_AUTO_TEST_SUITE_END()
