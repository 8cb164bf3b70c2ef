#include "net/poco_status.h"

#include <Poco/Net/HTTPResponse.h>

#include <cctype>
#include <sstream>
#include <string>

namespace agent_run {

int poco_status(const Poco::Net::HTTPResponse& response) {
  std::ostringstream head;
  response.write(head);  // "HTTP/1.1 529 Overloaded\r\n" and the headers
  const std::string text = head.str();
  std::size_t at = text.find(' ');
  int code = 0;
  for (std::size_t i = at == std::string::npos ? text.size() : at + 1;
       i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0 && code < 1000; ++i) {
    code = code * 10 + (text[i] - '0');
  }
  return code;
}

}  // namespace agent_run
