#include "support/fixtures.h"
#include "support/process_probes.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <regex>

using namespace agent_run;
using namespace agent_run::test;

namespace {

struct BackgroundFixture {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  ToolScope scope;
  SessionState session;
  std::chrono::milliseconds timeout = std::chrono::minutes(2);  // what one call may take
  BackgroundFixture() {
    scope.workspace = folder.path();
    scope.environment = {std::string("PATH=") + std::getenv("PATH")};
  }
  ToolOutput call(const std::string& tool, Json input) { return tools.find(tool)->run(input, scope, session, timeout); }
  ToolOutput start(const std::string& command) {
    return call("bash", Json::object().set("command", command).set("background", true));
  }
  ToolOutput output(const std::string& handle, int wait = 0) {
    return call("process_output", Json::object().set("handle", handle).set("wait", wait));
  }
  /// Asks process_output until `text` appears (a minute at most); returns everything read.
  std::string output_until(const std::string& handle, const std::string& text) {
    std::string all;
    for (int i = 0; i < 60 && all.find(text) == std::string::npos; ++i) all += output(handle, 1).content;
    return all;
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(process_output_and_kill, BackgroundFixture)

BOOST_AUTO_TEST_CASE(a_server_started_by_one_call_is_read_by_process_output_and_stopped_by_process_kill) {
  BOOST_TEST(start("exec python3 -u -m http.server 0 --bind 127.0.0.1")
                 .content.starts_with("Started in the background as bg1"));
  std::string banner = output_until("bg1", "Serving HTTP on 127.0.0.1 port ");
  std::smatch port;
  BOOST_REQUIRE_MESSAGE(std::regex_search(banner, port, std::regex("port ([0-9]+)")), banner);
  BOOST_TEST(banner.find("[bg1 is still running; ") != std::string::npos);
  std::string url = "http://127.0.0.1:" + port[1].str() + "/";
  ToolOutput fetched =
      call("bash", Json::object().set("command", "python3 -c 'import urllib.request; print(urllib.request.urlopen(\"" +
                                                     url + "\").status)'"));
  BOOST_TEST(fetched.content == "200\n[exit code 0]\n");
  std::string log = output_until("bg1", "\"GET / HTTP/1.1\" 200");
  BOOST_TEST(log.find("Serving HTTP") == std::string::npos);  // only what is new since the last ask
  pid_t server = session.processes.find("bg1")->pid();
  ToolOutput killed = call("process_kill", Json::object().set("handle", "bg1"));
  BOOST_TEST(!killed.is_error);
  BOOST_TEST(killed.content.find("[bg1 was killed by signal 15 (Terminated) after ") != std::string::npos);
  BOOST_TEST(!is_alive(server));
  ToolOutput refused =
      call("bash", Json::object().set("command", "python3 -c 'import urllib.request; urllib.request.urlopen(\"" + url +
                                                     "\")' 2>&1 | tail -n 1"));
  BOOST_TEST(refused.content.find("Connection refused") != std::string::npos);
  ToolOutput after = output("bg1");
  BOOST_TEST(after.content.starts_with("[bg1 was killed by signal 15 (Terminated) after "));
}

BOOST_AUTO_TEST_CASE(process_output_reports_the_exit_status_once_it_has_ended) {
  start("echo hello; exit 7");
  std::string all = output_until("bg1", "exited");
  BOOST_TEST(all.find("hello\n") != std::string::npos);
  BOOST_TEST(all.find("[bg1 exited with exit code 7 after ") != std::string::npos);
}

// The output comes when the test says so (a file it writes once the wait has begun), and the wait
// is the longest there is: a call that returned before the output would hold none, and one that
// waited its full minute would end far later than the output came.
BOOST_AUTO_TEST_CASE(wait_returns_as_soon_as_there_is_new_output) {
  start("until [ -e go ]; do sleep 0.01; done; echo late; sleep 1000");
  std::atomic<std::int64_t> go_at_ms{0};
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the call is waiting by then, or soon will be
    go_at_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now().time_since_epoch()).count();
    folder.write("go", "");
  });
  ToolOutput got = output("bg1", 60);  // the longest wait there is
  const auto returned_at_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now().time_since_epoch()).count();
  writer.join();
  BOOST_TEST(got.content == "late\n[bg1 is still running; 5 new bytes]\n");
  // Within a tenth of the wait of the output (the poll of the waiting loop and a loaded machine's
  // scheduling are far less): a wait bounded by its own length is not what this names.
  BOOST_TEST(returned_at_ms - go_at_ms.load() < 6000, "returned " << returned_at_ms - go_at_ms.load() << " ms after the output");
}

BOOST_AUTO_TEST_CASE(process_kill_stops_children_that_left_the_group) {
  // The pid comes once setsid's sleep has exec'd: it has left the group by then.
  start(
      "setsid sleep 1000 >/dev/null 2>&1 & p=$!; "
      "until [ \"$(cat /proc/$p/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done; echo $p; sleep 1000");
  pid_t escaped = pids_in(output_until("bg1", "\n")).at(0);
  BOOST_TEST(is_alive(escaped));
  call("process_kill", Json::object().set("handle", "bg1"));
  BOOST_TEST(is_gone_soon(escaped));
}

BOOST_AUTO_TEST_CASE(an_unknown_handle_names_the_handles_there_are) {
  ToolOutput none = output("bg1");
  BOOST_TEST(none.is_error);
  BOOST_TEST(none.content ==
             "process_output: no background process 'bg1': none has been started (bash with background: true)");
  start("sleep 1000");
  BOOST_TEST(call("process_kill", Json::object().set("handle", "bg9")).content ==
             "process_kill: no background process 'bg9'; the handles are bg1");
}

BOOST_AUTO_TEST_SUITE_END()
