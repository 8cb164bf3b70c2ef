// The atomic write the report folder uses after every attempt: a file written piece by piece is the
// pieces in order, whatever their sizes against the write buffer, and a write that cannot finish
// leaves the last good file and no temporary beside it.

#include "base/files.h"

#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

using namespace agent_run;
namespace fs = std::filesystem;

namespace {

/// The names in `folder`, sorted, one per line.
std::string names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  std::string listed;
  for (const std::string& name : names) listed += name + "\n";
  return listed;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(files)

BOOST_AUTO_TEST_CASE(a_file_written_in_pieces_is_the_pieces_in_order_across_the_buffer) {
  test::TempFolder folder;
  std::string expected;
  auto written = write_file_atomically(folder.path() / "report.xml", [&](const WritePiece& write) {
    for (int i = 0; i < 20000; ++i) {  // small pieces, 260 KB in all: past the 64 KiB buffer a few times
      std::string piece = "<case n=\"" + std::to_string(i) + "\"/>\n";
      expected += piece;
      write(piece);
    }
    expected += "<fits/>\n";
    write("<fits/>\n");  // in the buffer when the large piece comes
    const std::string large(600 * 1024, 'x');  // one piece larger than the buffer
    expected += large;
    write(large);
    expected += "</end>\n";
    write("</end>\n");
    write("");
  });
  BOOST_REQUIRE_MESSAGE(written.has_value(), (written ? std::string() : written.error().message));
  BOOST_TEST((folder.read("report.xml") == expected));
  BOOST_TEST(names_in(folder.path()) == "report.xml\n");
}

BOOST_AUTO_TEST_CASE(a_producer_that_throws_leaves_the_last_good_file_and_no_temporary) {
  test::TempFolder folder;
  folder.write("junit.xml", "the last good report\n");
  BOOST_CHECK_THROW(write_file_atomically(folder.path() / "junit.xml",
                                          [&](const WritePiece& write) {
                                            write(std::string(300 * 1024, 'a'));  // on disk in the temporary
                                            throw std::runtime_error("out of memory half-way");
                                          }),
                    std::runtime_error);
  BOOST_TEST(folder.read("junit.xml") == "the last good report\n");
  BOOST_TEST(names_in(folder.path()) == "junit.xml\n");
}

BOOST_AUTO_TEST_CASE(a_folder_that_cannot_hold_the_file_is_an_error_naming_it) {
  test::TempFolder folder;
  folder.write("taken", "a file where the folder should be\n");
  auto written = write_file_atomically(folder.path() / "taken" / "report.json",
                                       [](const WritePiece& write) { write("{}\n"); });
  BOOST_REQUIRE(!written.has_value());
  BOOST_TEST(written.error().message.find((folder.path() / "taken" / "report.json").string()) == 0u,
             written.error().message);
}

BOOST_AUTO_TEST_SUITE_END()
