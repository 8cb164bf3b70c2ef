#include "base/base64.h"
#include "tools/tool.h"
#include "tools_fixture.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <fstream>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// The smallest valid PNG: a 1x1 transparent pixel, every chunk's CRC right. (The literal is sized
/// by the compiler: a hand-counted 70 once read three bytes past a 67-byte one, found by ASan.)
constexpr char k_png_bytes[] =
    "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01"
    "\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0d\x49\x44\x41\x54\x78\xda\x63\x64\x60\xf8\x5f"
    "\x0f\x00\x02\x87\x01\x80\xeb\x47\xba\x92\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82";
const std::string k_png(k_png_bytes, sizeof k_png_bytes - 1);

long max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(read_file, ToolsFixture)

BOOST_AUTO_TEST_CASE(numbers_lines_drops_carriage_returns_and_reads_a_last_line_without_newline) {
  folder.write("a.txt", "alpha\r\nbeta\r\ngamma");
  BOOST_TEST(read("a.txt").content == "     1\talpha\n     2\tbeta\n     3\tgamma\n");
}

BOOST_AUTO_TEST_CASE(says_when_the_file_is_empty_or_the_offset_is_past_the_end) {
  folder.write("empty.txt", "");
  folder.write("two.txt", "a\nb\n");
  BOOST_TEST(read("empty.txt").content == "(the file is empty)\n");
  BOOST_TEST(call("read_file", Json::object().set("path", "two.txt").set("offset", 3)).content ==
             "(the file has 2 lines; offset is past the end)\n");
  BOOST_TEST(call("read_file", Json::object().set("path", "two.txt").set("offset", 0)).content ==
             "read_file: offset must be at least 1");
}

BOOST_AUTO_TEST_CASE(cuts_long_lines_with_a_marker) {
  folder.write("long.txt", std::string(2500, 'x') + "\nshort\n");
  BOOST_TEST(read("long.txt").content ==
             "     1\t" + std::string(2000, 'x') + "... [line cut at 2000 of 2500 bytes]\n     2\tshort\n");
}

BOOST_AUTO_TEST_CASE(cuts_long_lines_on_a_character_boundary) {
  std::string text = "a";
  for (int i = 0; i < 1200; ++i) text += "\xc3\xa9";  // é, 2 bytes each
  folder.write("accents.txt", text + "\n");
  std::string shown = read("accents.txt").content;
  BOOST_TEST(shown == "     1\t" + text.substr(0, 1999) + "... [line cut at 1999 of 2401 bytes]\n");
}

BOOST_AUTO_TEST_CASE(a_page_stops_at_100_KiB_and_says_where_to_go_on) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += std::string(1000, 'a' + i % 26) + "\n";
  folder.write("wide.txt", text);
  std::string shown = read("wide.txt").content;
  BOOST_TEST(shown.size() <= 100 * 1024 + 200);
  BOOST_TEST(shown.find("[lines 1-101 of 200; call again with offset=102 to read more]\n") != std::string::npos);
  BOOST_TEST(call("read_file", Json::object().set("path", "wide.txt").set("offset", 102)).content.find("   102\t") ==
             0);
}

BOOST_AUTO_TEST_CASE(pages_a_huge_file_without_holding_it_in_memory) {
  {
    std::ofstream out(folder.path() / "huge.log", std::ios::binary);
    std::string block;
    for (int i = 0; i < 1000; ++i) block += "log line with some words in it " + std::to_string(i) + "\n";
    for (int i = 0; i < 2000; ++i) out << block;  // about 70 MB, 2 million lines
  }
  const long before = max_rss_kib();
  ToolOutput page = call("read_file", Json::object().set("path", "huge.log").set("offset", 1999998).set("limit", 5));
  const long grew_kib = max_rss_kib() - before;
  BOOST_TEST(page.content ==
             "1999998\tlog line with some words in it 997\n1999999\tlog line with some words in it 998\n"
             "2000000\tlog line with some words in it 999\n");
#if defined(__SANITIZE_ADDRESS__)
  // ASan's quarantine holds every freed buffer for a while, so RSS here measures ASan, not read_file
  // (83 MB seen); the ordinary build checks the bound.
  BOOST_TEST_MESSAGE("max RSS grew by " << grew_kib << " KiB (not checked under AddressSanitizer)");
#else
  BOOST_TEST(grew_kib < 16 * 1024, "max RSS grew by " << grew_kib << " KiB while paging a 70 MB file");
#endif
  ToolOutput first = call("read_file", Json::object().set("path", "huge.log").set("limit", 1));
  BOOST_TEST(first.content ==
             "     1\tlog line with some words in it 0\n"
             "[lines 1-1 of 2000000; call again with offset=2 to read more]\n");
}

BOOST_AUTO_TEST_CASE(returns_a_png_as_an_image_block_told_by_content_not_name) {
  folder.write("pixel.txt", k_png);
  ToolOutput output = read("pixel.txt");
  BOOST_TEST(!output.is_error);
  BOOST_TEST(output.content == "Image pixel.txt (PNG, 70 bytes)\n");
  BOOST_REQUIRE(output.images.size() == 1u);
  BOOST_TEST(output.images[0].media_type == "image/png");
  BOOST_TEST(*base64_decode(output.images[0].data_base64) == k_png);
  folder.write("notes.png", "just text\n");
  ToolOutput text = read("notes.png");
  BOOST_TEST(text.content == "     1\tjust text\n");
  BOOST_TEST(text.images.empty());
}

BOOST_AUTO_TEST_CASE(recognises_jpeg_gif_and_webp_by_their_first_bytes) {
  folder.write("a", std::string("\xFF\xD8\xFF\xE0", 4) + std::string(20, '\0'));
  folder.write("b", "GIF89a" + std::string(20, '\0'));
  folder.write("c", std::string("RIFF\x10\0\0\0WEBPVP8 ", 16) + std::string(8, '\0'));
  BOOST_TEST(read("a").images.at(0).media_type == "image/jpeg");
  BOOST_TEST(read("b").images.at(0).media_type == "image/gif");
  BOOST_TEST(read("c").images.at(0).media_type == "image/webp");
  BOOST_TEST(read("c").content == "Image c (WebP, 24 bytes)\n");
}

BOOST_AUTO_TEST_CASE(refuses_an_image_over_the_size_limit) {
  folder.write("big.png", k_png + std::string(4 * 1024 * 1024, '\0'));
  ToolOutput output = read("big.png");
  BOOST_TEST(output.is_error);
  BOOST_TEST(output.content ==
             "read_file: 'big.png' is a PNG image of 4194374 bytes; images over 3840000 bytes are not shown");
  BOOST_TEST(output.images.empty());
}

BOOST_AUTO_TEST_CASE(never_opens_a_fifo) {
  BOOST_REQUIRE(::mkfifo((folder.path() / "pipe").c_str(), 0600) == 0);
  ToolOutput output = read("pipe");  // would block forever if it were opened for reading
  BOOST_TEST(output.is_error);
  BOOST_TEST(output.content == "read_file: 'pipe' is a FIFO; it is never opened");
}

BOOST_AUTO_TEST_CASE(never_opens_a_device) {
  ToolScope in_dev;
  in_dev.workspace = "/dev";  // a workspace holding devices: they are looked at, never opened
  BOOST_TEST(tools.find("read_file")->run(Json::object().set("path", "zero"), in_dev, session, timeout).content ==
             "read_file: 'zero' is a character device; it is never opened");
  BOOST_TEST(tools.find("grep")
                 ->run(Json::object().set("pattern", "x").set("path", "zero"), in_dev, session, timeout)
                 .content == "grep: 'zero' is a character device; it is never opened");
}

BOOST_AUTO_TEST_CASE(a_missing_file_and_a_folder_get_clear_messages) {
  std::filesystem::create_directory(folder.path() / "src");
  BOOST_TEST(read("nope.txt").content == "read_file: 'nope.txt' does not exist");
  BOOST_TEST(read("src").content == "read_file: 'src' is a directory");
}

BOOST_AUTO_TEST_CASE(reads_through_a_symlink_that_stays_inside) {
  folder.write("real.txt", "inside\n");
  std::filesystem::create_symlink("real.txt", folder.path() / "link.txt");
  BOOST_TEST(read("link.txt").content == "     1\tinside\n");
  BOOST_TEST(session.reads.count("real.txt") == 1u);  // remembered under its real path, which edits resolve to
}

BOOST_AUTO_TEST_SUITE_END()
