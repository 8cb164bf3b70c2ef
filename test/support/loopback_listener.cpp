#include "support/loopback_listener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <stdexcept>

namespace agent_run::test {

LoopbackListener::LoopbackListener() {
  m_socket = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (m_socket < 0 || ::bind(m_socket, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
      ::listen(m_socket, 64) != 0 || ::getsockname(m_socket, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    throw std::runtime_error("cannot listen on 127.0.0.1");
  }
  m_port = ntohs(address.sin_port);
  m_thread = std::thread([this] { accept_loop(); });
}

LoopbackListener::~LoopbackListener() {
  m_stop = true;
  m_thread.join();
  ::close(m_socket);
}

// Closes each connection at once, so a client that waits for an answer gets its end of file.
void LoopbackListener::accept_loop() {
  while (!m_stop) {
    pollfd fd{m_socket, POLLIN, 0};
    if (::poll(&fd, 1, 20) <= 0) continue;
    std::lock_guard lock(m_mutex);
    accept_queued();
  }
}

void LoopbackListener::accept_queued() {
  for (int client; (client = ::accept4(m_socket, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;) {
    ++m_connections;
    ::close(client);
  }
}

int LoopbackListener::connections() {
  std::lock_guard lock(m_mutex);
  accept_queued();
  return m_connections;
}

void LoopbackListener::connect_directly() const {
  int client = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(m_port));
  if (::connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(client);
    throw std::runtime_error("cannot connect to the test listener");
  }
  ::close(client);
}

}  // namespace agent_run::test
