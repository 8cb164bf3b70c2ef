#include "net/tcp_probe.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace agent_run {

Expected<void> tcp_connects(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* addresses = nullptr;
  const int resolved = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &addresses);
  if (resolved != 0) return make_error("cannot resolve " + host + ": " + gai_strerror(resolved));
  std::string why = "no address";
  bool connected = false;
  for (addrinfo* a = addresses; a != nullptr && !connected; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    connected = connect(fd, a->ai_addr, a->ai_addrlen) == 0;
    if (!connected) why = std::strerror(errno);
    close(fd);
  }
  freeaddrinfo(addresses);
  if (!connected) return make_error("no answer at " + host + ":" + std::to_string(port) + " (" + why + ")");
  return {};
}

}  // namespace agent_run
