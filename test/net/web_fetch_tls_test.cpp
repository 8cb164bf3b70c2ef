#include "net/web_client.h"
#include "support/fixtures.h"
#include "support/web_test_server.h"

#include <boost/test/unit_test.hpp>

#include <cstdlib>

namespace agent_run {
namespace {

using test::TableResolver;
using test::WebRoute;
using test::WebTestServer;

/// A test certificate authority and a certificate it signed for docs.example.com, made with openssl.
struct Certificates {
  test::TempFolder folder;
  Certificates() {
    test::CommandResult made = test::run_shell(
        "set -e\n"
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem "
        "-days 1 -subj '/CN=agent-run test CA' 2>&1\n"
        "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr "
        "-subj '/CN=docs.example.com' 2>&1\n"
        "printf 'subjectAltName=DNS:docs.example.com\\n' > san.cnf\n"
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 "
        "-extfile san.cnf 2>&1\n",
        folder.path());
    BOOST_REQUIRE_MESSAGE(made.exit_code == 0, "openssl could not make test certificates: " << made.output);
  }
  std::string path(const char* name) const { return (folder.path() / name).string(); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(web_fetch_tls)

BOOST_AUTO_TEST_CASE(https_goes_to_the_checked_address_verifies_the_certificate_and_its_name) {
  Certificates certificates;
  // OpenSSL's default trust store honours SSL_CERT_FILE; the client context is made at the first https fetch.
  ::setenv("SSL_CERT_FILE", certificates.path("ca.pem").c_str(), 1);
  WebTestServer server({{"/secure", WebRoute{200, "text/plain", "over tls"}}},
                       test::ServerCertificate{certificates.path("server.key"), certificates.path("server.pem")});
  TableResolver resolver({{"docs.example.com", {{"93.184.216.34"}}}, {"other.example.com", {{"151.101.1.69"}}}});
  WebFetchOptions options;
  options.resolver = &resolver;
  options.route_for_test = test::route_everything_to(server.port());

  auto page = fetch_web_page("https://docs.example.com/secure", options);
  BOOST_REQUIRE_MESSAGE(page.has_value(), (page ? "" : page.error().message));
  BOOST_TEST(page->status == 200);
  BOOST_TEST(page->body == "over tls");
  BOOST_TEST((server.requests() == std::vector<std::string>{"docs.example.com /secure"}));

  auto wrong_name = fetch_web_page("https://other.example.com/secure", options);  // certificate is for docs.example.com
  BOOST_REQUIRE(!wrong_name.has_value());
  BOOST_TEST(wrong_name.error().message ==
             "fetching https://other.example.com/secure failed: Certificate validation error: Unacceptable "
             "certificate from other.example.com: application verification failure");
  BOOST_TEST(server.requests().size() == 1u);  // no request went over the unverified connection

  auto plain_to_tls = fetch_web_page("http://docs.example.com/secure", options);  // plain HTTP to a TLS port
  BOOST_TEST(!(plain_to_tls && plain_to_tls->status == 200));
  ::unsetenv("SSL_CERT_FILE");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
