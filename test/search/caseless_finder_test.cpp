#include "search/caseless_finder.h"

#include <boost/test/unit_test.hpp>

#include <random>

using namespace agent_run;

namespace {

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c; }

/// The answer by brute force.
std::size_t slow_find(const std::string& text, const std::string& needle, std::size_t from) {
  for (std::size_t start = from; start + needle.size() <= text.size(); ++start) {
    bool equal = true;
    for (std::size_t i = 0; i < needle.size() && equal; ++i) equal = lower(text[start + i]) == lower(needle[i]);
    if (equal) return start;
  }
  return std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(caseless_finder)

BOOST_AUTO_TEST_CASE(finds_without_regard_to_ascii_case) {
  CaselessFinder finder("ToDo:");
  BOOST_TEST(finder.find("a todo: here", 0) == 2u);
  BOOST_TEST(finder.find("a TODO: here", 0) == 2u);
  BOOST_TEST(finder.find("a TODO here", 0) == std::string::npos);
  BOOST_TEST(finder.find("todo: and todo:", 1) == 10u);
  BOOST_TEST(finder.find(std::string(40, 'x') + "tOdO:", 0) == 40u);  // past the 16-byte blocks, in the tail
}

BOOST_AUTO_TEST_CASE(agrees_with_brute_force_on_random_text) {
  std::mt19937 random(7);
  const std::string alphabet = "abAB_(x ";
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  for (int round = 0; round < 2000; ++round) {
    std::string text(random() % 100, ' ');
    for (char& c : text) c = alphabet[pick(random)];
    std::string needle(1 + random() % 5, ' ');
    for (char& c : needle) c = alphabet[pick(random)];
    const std::size_t from = text.empty() ? 0 : random() % text.size();
    BOOST_TEST_REQUIRE(CaselessFinder(needle).find(text, from) == slow_find(text, needle, from),
                       "needle '" << needle << "' in '" << text << "' from " << from);
  }
}

BOOST_AUTO_TEST_CASE(exact_mode_agrees_with_std_find_on_random_text) {
  std::mt19937 random(11);
  const std::string alphabet = "abAB_(x ";
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  for (int round = 0; round < 2000; ++round) {
    std::string text(random() % 100, ' ');
    for (char& c : text) c = alphabet[pick(random)];
    std::string needle(1 + random() % 5, ' ');
    for (char& c : needle) c = alphabet[pick(random)];
    const std::size_t from = text.empty() ? 0 : random() % text.size();
    BOOST_TEST_REQUIRE(CaselessFinder(needle, FinderCase::exact).find(text, from) == text.find(needle, from),
                       "needle '" << needle << "' in '" << text << "' from " << from);
  }
  BOOST_TEST(CaselessFinder("ToDo", FinderCase::exact).find("todo TODO ToDo", 0) == 10u);
}

BOOST_AUTO_TEST_CASE(exact_mode_agrees_with_std_find_where_its_rare_byte_is_common_then_rare) {
  // The rarest byte of "XyZ" by the table is a capital: common in the first part of each text (memchr
  // stops often, and the search moves to the blocks), absent from the rest.
  std::mt19937 random(13);
  for (int round = 0; round < 300; ++round) {
    const std::string common = "XZyx ";
    const std::string rare = "abcy \n";
    std::string text(random() % 3000, ' ');
    const std::size_t turn = text.empty() ? 0 : random() % text.size();
    for (std::size_t i = 0; i < text.size(); ++i) {
      text[i] = i < turn ? common[random() % common.size()] : rare[random() % rare.size()];
    }
    if (!text.empty() && random() % 2) text.replace(random() % text.size(), 0, "XyZ");
    const std::size_t from = text.empty() ? 0 : random() % text.size();
    BOOST_TEST_REQUIRE(CaselessFinder("XyZ", FinderCase::exact).find(text, from) == text.find("XyZ", from),
                       "round " << round << " from " << from);
  }
}

BOOST_AUTO_TEST_SUITE_END()
