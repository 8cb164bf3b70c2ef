#pragma once

#include "base/expected.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// One header of an HTTP request.
struct HttpHeader {
  std::string name;
  std::string value;
};

/// What to send: method, absolute `http://` or `https://` URL, headers and body.
struct HttpRequest {
  std::string method = "POST";
  std::string url;
  std::vector<HttpHeader> headers;
  std::string body;
};

/// How long one exchange may take: to connect; between two reads (no byte at all arrived,
/// keep-alives included); and in all, from open() to the last byte read.
struct HttpLimits {
  std::chrono::milliseconds connect = std::chrono::seconds(10);
  std::chrono::milliseconds idle = std::chrono::seconds(90);
  std::chrono::milliseconds total = std::chrono::hours(24);
};

/// Why reading a response failed, for callers that tell a silent server from a deadline.
enum class HttpFailure { none, timeout, deadline, broken, too_long };

/// Lets another thread end an HTTP exchange early, or wait until its request has gone out. Shared
/// by the thread that runs the exchange (HttpStream::open and the reads after it) and one that may
/// stop it; thread-safe. Interrupting makes a wait for the response or a read blocked in the other
/// thread return at once as a broken connection, and every later read fail; a connect in progress
/// is not cut short (it ends at the connect limit), but nothing is sent after it.
class HttpInterrupt {
 public:
  void interrupt();
  bool interrupted() const;
  /// Waits until the request was sent (true), or the exchange failed or was interrupted before
  /// (false), at most until `deadline`.
  bool wait_sent(std::chrono::steady_clock::time_point deadline) const;

 private:
  friend class HttpStream;
  bool attach(int socket);  // false when interrupted already
  void detach();
  void finish_sending(bool sent);

  mutable std::mutex m_mutex;
  mutable std::condition_variable m_changed;
  int m_socket = -1;
  bool m_interrupted = false;
  bool m_sending_done = false;
  bool m_sent = false;
};

/// An HTTP/1.1 response being received over plain TCP or TLS (chosen by the URL's scheme): its
/// status and headers, then its body line by line as it arrives (chunked or not). Every read
/// waits at most the idle limit and never past the total limit. The adapter over Poco Net and
/// NetSSL; no Poco type leaks out.
class HttpStream {
 public:
  /// Connects, sends `request` and reads the response's status line and headers. Fails with a
  /// message naming the URL (without any user:password) and what went wrong. `interrupt`, when
  /// given, must outlive the stream.
  static Expected<HttpStream> open(const HttpRequest& request, const HttpLimits& limits,
                                   HttpInterrupt* interrupt = nullptr);

  HttpStream(HttpStream&& other) noexcept;
  HttpStream& operator=(HttpStream&& other) noexcept;
  ~HttpStream();

  int status() const;
  /// The response header `name` (case-insensitive), or "" when absent.
  std::string header(std::string_view name) const;

  /// The next body line without its '\n'; nullopt at the end of the body. Fails on a timeout,
  /// the total limit, a broken connection, or a line longer than 16 MiB.
  Expected<std::optional<std::string>> read_line();
  /// The rest of the body, at most `max_bytes` of it.
  Expected<std::string> read_body(std::size_t max_bytes);
  /// What made the last read fail (`none` after a successful read).
  HttpFailure last_failure() const;

 private:
  struct State;
  explicit HttpStream(std::unique_ptr<State> state);
  Expected<int> next_byte();
  bool was_interrupted();

  std::unique_ptr<State> m_state;
};

/// `url` without a `user:password@` part, fit for messages and reports.
std::string url_for_messages(std::string_view url);

}  // namespace agent_run
