#pragma once

#include "base/expected.h"

#include <string>

namespace agent_run {

/// Whether a TCP connection to `host` (a name or a literal address, IPv6 without brackets) at `port`
/// opens; the error says why not (the name does not resolve, refused, unreachable). The connection is
/// closed at once: nothing is sent.
Expected<void> tcp_connects(const std::string& host, int port);

}  // namespace agent_run
