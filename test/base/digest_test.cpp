// SHA-256 as the read tracking of read_file and edit_file and the reports' file hashes use it: the
// digests of FIPS 180-2's test messages, and the same digest whatever pieces the content arrives in.

#include "base/digest.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;

BOOST_AUTO_TEST_SUITE(digest)

BOOST_AUTO_TEST_CASE(sha256_of_the_standard_test_messages) {
  BOOST_TEST(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  BOOST_TEST(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

BOOST_AUTO_TEST_CASE(pieces_give_the_digest_of_the_whole) {
  Sha256 streamed;
  const std::string piece(1000, 'a');
  for (int i = 0; i < 1000; ++i) streamed.update(piece);  // a million 'a's, FIPS 180-2's third message
  BOOST_TEST(streamed.hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  Sha256 uneven;
  const std::string text = "the quick brown fox jumps over the lazy dog, again and again";
  for (std::size_t at = 0; at < text.size(); at += 7) uneven.update(std::string_view(text).substr(at, 7));
  BOOST_TEST(uneven.hex() == sha256_hex(text));
}

BOOST_AUTO_TEST_SUITE_END()
