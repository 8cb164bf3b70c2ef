#include "exec/child_reader.h"
#include "base/cancellation.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <mutex>

extern char** environ;

using namespace agent_run;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> this_environment() {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry; ++entry) entries.emplace_back(*entry);
  return entries;
}

ChildProcess spawn_shell(const std::string& script) {
  auto child = ChildProcess::spawn({"sh", "-c", script}, {}, this_environment());
  BOOST_REQUIRE(child.has_value());
  return std::move(*child);
}

/// What a reader handed over, with a wait for its end.
struct Collected {
  std::mutex mutex;
  std::condition_variable ended;
  std::string out;
  std::optional<ReadEnd> end;

  ChildReader::StdoutHandler take(bool (*accept)(std::string_view) = nullptr) {
    return [this, accept](std::string_view bytes) {
      std::lock_guard lock(mutex);
      out.append(bytes);
      return accept ? accept(out) : true;
    };
  }
  ChildReader::EndHandler finish() {
    return [this](ReadEnd how) {
      std::lock_guard lock(mutex);
      end = how;
      ended.notify_all();
    };
  }
  std::optional<ReadEnd> wait_end() {
    std::unique_lock lock(mutex);
    ended.wait_for(lock, 60s, [&] { return end.has_value(); });
    return end;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(child_reader)

BOOST_AUTO_TEST_CASE(stdout_reaches_the_handler_and_stderr_is_drained_into_a_tail) {
  ChildProcess child = spawn_shell(
      "i=0; while [ $i -lt 2000 ]; do echo 'noise noise noise noise' >&2; i=$((i+1)); done; "
      "echo last words >&2; echo out");
  Collected collected;
  ChildReader reader(child, collected.take(), collected.finish(), nullptr, 64);
  BOOST_TEST((collected.wait_end() == ReadEnd::closed));
  BOOST_TEST(collected.out == "out\n");
  BOOST_TEST(reader.stderr_bytes() == 2000u * 24 + 11);
  BOOST_TEST(reader.stderr_tail().size() <= 64u);
  BOOST_TEST(reader.stderr_tail().find("last words") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_handler_that_refuses_stops_the_reading) {
  ChildProcess child = spawn_shell("echo garbage; sleep 3600");
  Collected collected;
  ChildReader reader(child, collected.take([](std::string_view) { return false; }), collected.finish(), nullptr, 64);
  BOOST_TEST((collected.wait_end() == ReadEnd::refused));
}

BOOST_AUTO_TEST_CASE(stop_ends_the_reading_of_a_child_that_keeps_running) {
  ChildProcess child = spawn_shell("sleep 3600");
  Collected collected;
  ChildReader reader(child, collected.take(), collected.finish(), nullptr, 64);
  reader.stop();
  BOOST_TEST((collected.end == ReadEnd::stopped));  // the end handler ran before stop() returned
}

BOOST_AUTO_TEST_CASE(the_runs_cancellation_ends_the_reading) {
  ChildProcess child = spawn_shell("sleep 3600");
  Cancellation cancellation;
  Collected collected;
  ChildReader reader(child, collected.take(), collected.finish(), &cancellation, 64);
  cancellation.cancel(SIGTERM);
  BOOST_TEST((collected.wait_end() == ReadEnd::cancelled));
}

BOOST_AUTO_TEST_SUITE_END()
