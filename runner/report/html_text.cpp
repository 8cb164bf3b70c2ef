#include "report/html_text.h"

#include "report/xml_text.h"

namespace agent_run {

std::string html_text(std::string_view text) { return xml_escape_text(text); }

std::string html_attribute(std::string_view text) { return xml_escape_attribute(text); }

std::string html_token(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += keep ? c : '-';
  }
  return out.empty() ? "-" : out;
}

}  // namespace agent_run
