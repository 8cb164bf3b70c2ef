// The status code of a response Poco read, for codes inside and outside Poco's HTTPStatus enum.
#include "net/poco_status.h"

#include <Poco/Net/HTTPResponse.h>

#include <boost/test/unit_test.hpp>

#include <sstream>

namespace {

int status_of(const std::string& head) {
  Poco::Net::HTTPResponse response;
  std::istringstream in(head);
  response.read(in);
  return agent_run::poco_status(response);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(poco_status)

BOOST_AUTO_TEST_CASE(a_code_poco_names_is_read_as_sent) {
  BOOST_TEST(status_of("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n") == 200);
  BOOST_TEST(status_of("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\n\r\n") == 429);
}

// 529 is past the enum's last enumerator (511): UBSan stopped the model client reading it through
// getStatus(), which is why poco_status exists.
BOOST_AUTO_TEST_CASE(codes_past_poco_s_enum_are_read_as_sent) {
  BOOST_TEST(status_of("HTTP/1.1 529 Overloaded\r\n\r\n") == 529);
  BOOST_TEST(status_of("HTTP/1.1 599 Whatever\r\n\r\n") == 599);
}

BOOST_AUTO_TEST_SUITE_END()
