#include "base/file_uri.h"

#include <cctype>
#include <cstdio>
#include <string_view>

namespace agent_run {

namespace {

bool is_unreserved(unsigned char c) {
  return std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string path_to_uri(const std::filesystem::path& path) {
  std::string uri = "file://";
  for (unsigned char c : path.string()) {
    if (is_unreserved(c)) {
      uri += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    }
  }
  return uri;
}

std::filesystem::path uri_to_path(const std::string& uri) {
  std::string_view rest(uri);
  if (rest.substr(0, 7) == "file://") rest.remove_prefix(7);
  std::string path;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && hex_value(rest[i + 1]) >= 0 && hex_value(rest[i + 2]) >= 0) {
      path += static_cast<char>(hex_value(rest[i + 1]) * 16 + hex_value(rest[i + 2]));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

}  // namespace agent_run
