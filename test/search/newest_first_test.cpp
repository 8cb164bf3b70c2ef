#include "search/newest_first.h"
#include "search/file_walk.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <utime.h>

#include <algorithm>
#include <map>

using namespace agent_run;
using namespace agent_run::test;

namespace {

void set_mtime(const std::filesystem::path& path, long seconds) {
  utimbuf times{seconds, seconds};
  BOOST_REQUIRE(::utime(path.c_str(), &times) == 0);
}

/// Walks the whole folder into `found`, every file kept.
void walk_into(const TempFolder& folder, NewestFirst& found) {
  auto overrides = search_overrides({});
  BOOST_REQUIRE(overrides.has_value());
  auto walked = walk_files(folder.path(), ".", *overrides, [&](const WalkedFile& file) {
    found.add(file);
    return WalkStep::go_on;
  });
  BOOST_REQUIRE(walked.has_value());
}

/// `folders` folders of 10 files and one of 300 (more than one batch of its times), with times that
/// repeat, so that ties are broken by path; the expected order is built here from the times the test set.
std::string make_tree_and_expected_order(const TempFolder& folder, int folders = 12) {
  std::map<std::string, long> times;
  for (int f = 0; f < folders; ++f) {
    for (int i = 0; i < 10; ++i) times["d" + std::to_string(f) + "/f" + std::to_string(i) + ".txt"] = (f * 7 + i) % 23;
  }
  for (int i = 0; i < 300; ++i) times["big/sub/file_" + std::to_string(i)] = (i * 13) % 41;
  times["top.txt"] = 40;
  for (const auto& [path, seconds] : times) {
    folder.write(path, "x");
    set_mtime(folder.path() / path, 1000000 + seconds);
  }
  std::vector<std::pair<long, std::string>> order;
  for (const auto& [path, seconds] : times) order.emplace_back(-seconds, path);
  std::sort(order.begin(), order.end());
  std::string expected;
  for (const auto& entry : order) expected += entry.second + "\n";
  return expected;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(newest_first)

BOOST_AUTO_TEST_CASE(lists_a_walk_newest_first_with_ties_in_path_order) {
  TempFolder folder;
  folder.write("old.txt", "x");
  folder.write("new/b.txt", "x");
  folder.write("new/a.txt", "x");
  set_mtime(folder.path() / "old.txt", 1000);
  set_mtime(folder.path() / "new/b.txt", 2000);
  set_mtime(folder.path() / "new/a.txt", 2000);
  NewestFirst found;
  walk_into(folder, found);
  BOOST_TEST(found.size() == 3u);
  BOOST_TEST(found.list(10) == "new/a.txt\nnew/b.txt\nold.txt\n");
}

BOOST_AUTO_TEST_CASE(orders_hundreds_of_files_across_folders_as_their_times_say) {
  TempFolder folder;
  const std::string expected = make_tree_and_expected_order(folder);
  NewestFirst found;
  walk_into(folder, found);
  BOOST_TEST(found.size() == 421u);
  BOOST_TEST(found.list(1000) == expected);
}

BOOST_AUTO_TEST_CASE(past_a_thousand_files_the_order_is_the_same_with_or_without_the_helper_thread) {
  TempFolder folder;
  const std::string expected = make_tree_and_expected_order(folder, 250);  // 2,801 files
  for (StatHelper helper : {StatHelper::always, StatHelper::never, StatHelper::when_a_core_is_idle}) {
    NewestFirst found(helper);
    walk_into(folder, found);
    BOOST_TEST(found.size() == 2801u);
    BOOST_TEST(found.list(5000) == expected);
  }
}

BOOST_AUTO_TEST_CASE(a_capped_list_is_the_head_of_the_whole_list) {
  TempFolder folder;
  const std::string expected = make_tree_and_expected_order(folder);
  NewestFirst found;
  walk_into(folder, found);
  std::string head;
  for (std::size_t at = 0, lines = 0; lines < 25; ++lines) {
    std::size_t end = expected.find('\n', at) + 1;
    head += expected.substr(at, end - at);
    at = end;
  }
  BOOST_TEST(found.list(25) == head);
}

BOOST_AUTO_TEST_CASE(dropped_without_listing_it_stops_its_helper_and_closes_what_it_held) {
  TempFolder folder;
  make_tree_and_expected_order(folder, 250);
  const auto open_descriptors = [] {
    return std::distance(std::filesystem::directory_iterator("/proc/self/fd"), std::filesystem::directory_iterator());
  };
  const auto before = open_descriptors();
  auto found = std::make_unique<NewestFirst>(StatHelper::always);
  walk_into(folder, *found);
  found.reset();  // as when a walk fails half way: batches still waiting hold folders open
  BOOST_TEST(open_descriptors() == before);
}

BOOST_AUTO_TEST_SUITE_END()
