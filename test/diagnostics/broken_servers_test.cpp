#include "diagnostics/languages.h"
#include "diagnostics/model_text.h"
#include "diagnostics_fixture.h"
#include "exec/process.h"
#include "support/process_probes.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <csignal>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// A language server that answers initialize (and configuration requests) and then never publishes.
const std::string k_mute_server = std::string("#!/usr/bin/python3\nimport json, sys\n") + k_python_lsp_framing + R"(while True:
    message = read()
    if message.get("method") == "initialize":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": {"textDocumentSync": 1}}})
)";

/// A slow language server: it publishes a document version's (empty) list only when the next
/// version comes, so that every check's answer is late, and comes while the next edit is checked.
const std::string k_late_server = std::string("#!/usr/bin/python3\nimport json, sys\n") + k_python_lsp_framing +
                                  R"(held = None
while True:
    message = read()
    method = message.get("method", "")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": {"textDocumentSync": 1}}})
    elif method in ("textDocument/didOpen", "textDocument/didChange"):
        if held is not None:
            send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                  "params": {"uri": held[0], "version": held[1], "diagnostics": []}})
        document = message["params"]["textDocument"]
        held = (document["uri"], document["version"])
)";

/// A language server that answers initialize, then ignores shutdown, exit and the end of its input.
constexpr const char* k_stubborn_server = R"(#!/usr/bin/python3
import json, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
header = b""
while not header.endswith(b"\r\n\r\n"):
    header += sys.stdin.buffer.read(1)
length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
request = json.loads(sys.stdin.buffer.read(length))
body = json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": {"capabilities": {}}}).encode()
sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
sys.stdout.buffer.flush()
while True:
    time.sleep(1)
)";

/// A workspace with one Python file and a shelf holding pyflakes and a fake pyright-langserver.
/// The budget is generous and nearly all of it is the linter's reserve: a broken server is given
/// up as fast as with the defaults, and the linter that answers instead has all the time a loaded
/// machine needs (the two-second cap has its own test below).
struct BrokenServerFixture {
  ToolShelf shelf{{"pyflakes3"}};
  TempFolder workspace;
  DiagnosticsSettings settings = generous_budget();
  BrokenServerFixture() {
    workspace.write("app.py", "import os\n\nprint(os.getcwd())\n");
    settings.linter_reserve = settings.budget - 500ms;
    settings.initialize_timeout = k_patience;  // a slow start is not a failure here (one test sets 1 s)
    settings.cooldown = std::chrono::minutes(5);
  }
  std::filesystem::path root() const { return std::filesystem::canonical(workspace.path()); }

  /// An edit that introduces an undefined name, checked; asserts the linter answered.
  EditDiagnostics edit_and_expect_linter(EditChecker& checker, const std::string& suffix) {
    EditRunner edits{checker, workspace, shelf.environment()};
    EditDiagnostics result = edits.write("app.py", "import os\n\nprint(os.getcwd(), undefined_name)\n" + suffix);
    BOOST_TEST(result.checker == "pyflakes", describe(result));
    BOOST_TEST(has_problem(result.problems, "app.py", 3, "undefined name 'undefined_name'"), describe(result));
    return result;
  }

  /// The shelf's pyright-langserver started in the pool and ready (initialized), with no edit yet.
  LanguageServer* start_warm_server(EditChecker& checker) {
    ServerSpec spec{"pyright-langserver", {"pyright-langserver", "--stdio"}, nullptr, 50ms, {}};
    auto server = checker.pool().acquire(spec, root(), shelf.environment());
    BOOST_REQUIRE(server.has_value());
    BOOST_REQUIRE((*server)->wait_ready(std::chrono::steady_clock::now() + k_patience));
    return *server;
  }

  /// Waits until the `language`'s server that an earlier edit started is ready or has failed (it
  /// exited, wrote garbage or outlived its initialize timeout): the event the next edit depends on.
  /// Nothing when that server has already been seen to fail and was stopped.
  void wait_until_settled(EditChecker& checker, Language language, const std::vector<std::string>& environment) {
    for (const ServerSpec& spec : language_servers(language, root(), environment)) {
      LanguageServer* server = checker.pool().running(spec.name, root());
      if (server) server->wait_ready(std::chrono::steady_clock::now() + k_patience);
    }
  }
};

/// A pyflakes that answers --version and hangs on any check, after writing its pid to `pid_file`.
std::string hanging_pyflakes(const std::filesystem::path& pid_file) {
  return "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 3.0.1; exit 0; fi\necho $$ > " + pid_file.string() +
         "\nexec /bin/sleep 1000\n";
}

}  // namespace

// A language server that cannot do its job never costs the edit its budget: the linter answers
// instead, and a server that failed is not started again for five minutes.
BOOST_FIXTURE_TEST_SUITE(broken_servers, BrokenServerFixture)

// The one test of the two-second cap: a linter that never answers is abandoned when the budget is
// spent, not before, and its process group is killed. (Without the cap the check would hang.)
BOOST_AUTO_TEST_CASE(a_check_still_running_after_the_two_second_budget_is_abandoned) {
  TempFolder marks;
  ToolShelf hanging({});
  hanging.add_script("pyflakes3", hanging_pyflakes(marks.path() / "pid"));
  EditChecker checker;  // the defaults: the contract
  BOOST_TEST(checker.budget().count() == 2000);
  EditRunner edits{checker, workspace, hanging.environment()};
  EditDiagnostics result = edits.write("new.py", "print(undefined_name)\n");  // a new file: no baseline to check
  BOOST_TEST(result.checker == "pyflakes", describe(result));
  BOOST_TEST(result.status == "timeout", describe(result));
  BOOST_TEST(result.duration_ms >= 2000 - 60);  // the budget less the margin kept for the kill
  BOOST_TEST(
      diagnostics_text(result, checker.budget()).find("no answer within 2s; check abandoned") != std::string::npos,
      diagnostics_text(result, checker.budget()));
  std::string pid = wait_for_line_in(marks.path() / "pid");
  BOOST_REQUIRE(!pid.empty());
  BOOST_TEST(is_gone_soon(std::stoi(pid)));
}

BOOST_AUTO_TEST_CASE(a_shim_that_crashes_gives_the_linters_answer_and_a_cooldown) {
  shelf.add_script("pyright-langserver", "#!/bin/sh\necho 'error: this is only a shim' >&2\nexit 1\n");
  EditChecker checker(settings);
  EditDiagnostics first = edit_and_expect_linter(checker, "");
  // Still starting when the check began, or already seen to fail (exited, or closed its input).
  BOOST_TEST(
      (first.note == "pyright-langserver is starting" || first.note.find("pyright-langserver failed: it ") == 0u),
      first.note);
  wait_until_settled(checker, Language::python, shelf.environment());  // it has exited, and that was seen
  EditDiagnostics second = edit_and_expect_linter(checker, "# again\n");
  BOOST_TEST(second.note.find("; not retried for ") != std::string::npos, second.note);
  BOOST_TEST(checker.pool().cooldown_until("pyright-langserver", root()).has_value());
  EditDiagnostics third = edit_and_expect_linter(checker, "# and again\n");
  BOOST_TEST(third.note.find("pyright-langserver stopped working; not retried for 29") == 0u, third.note);
  BOOST_TEST(checker.pool().live_servers() == 0u);
}

BOOST_AUTO_TEST_CASE(a_shim_that_hangs_gives_the_linters_answer_and_a_cooldown) {
  TempFolder marks;
  shelf.add_script("pyright-langserver",
                   "#!/bin/sh\necho $$ > " + (marks.path() / "pid").string() + "\nexec /bin/sleep 1000\n");
  settings.initialize_timeout = 1s;
  EditChecker checker(settings);
  edit_and_expect_linter(checker, "");
  std::string pid = wait_for_line_in(marks.path() / "pid");  // the shim runs on its own: wait for it to start
  BOOST_REQUIRE(!pid.empty());
  pid_t shim = std::stoi(pid);
  wait_until_settled(checker, Language::python, shelf.environment());  // past its initialize timeout
  EditDiagnostics later = edit_and_expect_linter(checker, "# again\n");
  BOOST_TEST(later.note.find("pyright-langserver stopped working; not retried for 300s") == 0u, later.note);
  BOOST_TEST(checker.pool().cooldown_until("pyright-langserver", root()).has_value());
  BOOST_TEST(is_gone_soon(shim));  // its process group was killed
}

BOOST_AUTO_TEST_CASE(a_shim_that_answers_garbage_gives_the_linters_answer_and_a_cooldown) {
  shelf.add_script("pyright-langserver",
                   "#!/bin/sh\nprintf 'Usage: not a language server\\r\\n\\r\\n'\nexec /bin/sleep 1000\n");
  EditChecker checker(settings);
  edit_and_expect_linter(checker, "");
  wait_until_settled(checker, Language::python, shelf.environment());  // its garbage has been read
  EditDiagnostics later = edit_and_expect_linter(checker, "# again\n");
  BOOST_TEST(later.note.find("pyright-langserver stopped working") == 0u, later.note);
  BOOST_TEST(checker.pool().cooldown_until("pyright-langserver", root()).has_value());
}

BOOST_AUTO_TEST_CASE(a_warm_server_that_never_answers_is_abandoned_in_time_for_the_linter) {
  shelf.add_script("pyright-langserver", k_mute_server);
  EditChecker checker(settings);
  start_warm_server(checker);
  EditDiagnostics result = edit_and_expect_linter(checker, "");
  BOOST_TEST(result.note == "pyright-langserver gave no answer in time");
  BOOST_TEST(result.status == "problems");
  edit_and_expect_linter(checker, "# again\n");
  BOOST_TEST(!checker.pool().cooldown_until("pyright-langserver", root()).has_value());
  edit_and_expect_linter(checker, "# a third time\n");  // three in a row: stuck, stopped, on cooldown
  BOOST_TEST(checker.pool().cooldown_until("pyright-langserver", root()).has_value());
  BOOST_TEST(checker.pool().live_servers() == 0u);
  EditDiagnostics after = edit_and_expect_linter(checker, "# once more\n");  // no server is tried any more
  BOOST_TEST(after.note.find("pyright-langserver stopped working; not retried for") == 0u, after.note);
}

// Stuck is silent. A server that answers every check too late (pyright on a real project on a
// loaded machine) is slow: what it says after a check gave up shows it at work, and it is kept for
// the next edits instead of being stopped after three checks in a row.
BOOST_AUTO_TEST_CASE(a_warm_server_that_answers_late_is_slow_not_stuck_and_is_kept) {
  shelf.add_script("pyright-langserver", k_late_server);
  // The server's share is at least 2 s: time for this loaded machine to read its late answer to the
  // last edit before this one gives up (what the linter then gets does not matter here).
  settings.budget = 6s;
  settings.linter_reserve = 4s;
  EditChecker checker(settings);
  LanguageServer* server = start_warm_server(checker);
  EditRunner edits{checker, workspace, shelf.environment()};
  for (int edit = 1; edit <= 4; ++edit) {
    LanguageServer* live = checker.pool().running("pyright-langserver", root());
    BOOST_REQUIRE_MESSAGE(live == server, "the server was stopped before edit " << edit);
    std::uint64_t said = live->messages_received();
    EditDiagnostics result = edits.write("app.py", "import os\n\nprint(os.getcwd(), " + std::to_string(edit) + ")\n");
    BOOST_TEST(result.note.find("pyright-langserver gave no answer in time") != std::string::npos, describe(result));
    // Its late answer to this edit comes with the next message it reads; the event the next edit's
    // verdict depends on is that it said something after this check gave up.
    BOOST_REQUIRE_MESSAGE(checker.pool().running("pyright-langserver", root()) == live,
                          "the server was stopped after edit " << edit);
    if (edit > 1) BOOST_REQUIRE(wait_until([&] { return live->messages_received() > said; }));
  }
  BOOST_TEST(checker.pool().live_servers() == 1u);
  BOOST_TEST(!checker.pool().cooldown_until("pyright-langserver", root()).has_value());
}

BOOST_AUTO_TEST_CASE(a_server_that_ignores_shutdown_is_killed_after_the_grace) {
  TempFolder marks;
  shelf.add_script("stubborn-server", k_stubborn_server);
  settings.shutdown_grace = 500ms;
  ServerPool pool(settings);
  ServerSpec spec{"stubborn-server", {"stubborn-server"}, nullptr, 50ms, {}};
  auto server = pool.acquire(spec, root(), shelf.environment());
  BOOST_REQUIRE(server.has_value());
  BOOST_REQUIRE((*server)->wait_ready(std::chrono::steady_clock::now() + k_patience));
  PoolShutdown shutdown = pool.shutdown_all();
  BOOST_TEST(shutdown.killed == 1);  // it ignores shutdown, exit and SIGTERM: only the kill after the grace ends it
  BOOST_TEST(shutdown.exited == 0);
  BOOST_TEST(pool.live_servers() == 0u);
}

BOOST_AUTO_TEST_CASE(past_the_cap_the_least_recently_used_server_is_stopped) {
  shelf.add_script("mute-server", k_mute_server);
  settings.max_servers = 2;
  ServerPool pool(settings);
  ServerSpec spec{"mute-server", {"mute-server"}, nullptr, 50ms, {}};
  TempFolder a, b, c;
  auto first = pool.acquire(spec, a.path(), shelf.environment());
  auto second = pool.acquire(spec, b.path(), shelf.environment());
  BOOST_REQUIRE(first && second);
  BOOST_TEST(*pool.acquire(spec, a.path(), shelf.environment()) == *first);  // the same warm server; a is now newest
  auto third = pool.acquire(spec, c.path(), shelf.environment());
  BOOST_REQUIRE(third.has_value());
  BOOST_TEST(pool.live_servers() == 2u);
  BOOST_TEST(*pool.acquire(spec, a.path(), shelf.environment()) == *first);  // b was the least recently used
}

// rust-analyzer on PATH is often rustup's proxy without the component: present, yet exits at once.
// The machine's own proxy is used when it is one; otherwise a script that behaves the same way.
BOOST_AUTO_TEST_CASE(rust_analyzer_as_a_rustup_proxy_without_the_component_falls_to_cargo_check) {
  ToolShelf rust({"cargo", "rustc"});
  std::vector<std::string> machine = tools_environment();
  auto proxy = find_program("rust-analyzer", machine);
  ProcessSpec version;
  bool real_proxy = false;
  if (proxy) {
    version.argv = {proxy->string(), "--version"};
    version.timeout = 10s;
    auto ran = run_process(version);
    real_proxy = ran && ran->exit_code != 0;
  }
  if (real_proxy) {
    rust.add_link("rust-analyzer", *proxy);
  } else {
    rust.add_script("rust-analyzer",
                    "#!/bin/sh\necho \"error: Unknown binary 'rust-analyzer' in official toolchain\" >&2\nexit 1\n");
  }
  BOOST_TEST_MESSAGE("rust-analyzer: " << (real_proxy ? "the machine's rustup proxy" : "a script like it"));
  workspace.write("Cargo.toml", "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
  workspace.write("src/main.rs", "fn main() {\n}\n");
  settings.budget = 20s;  // cargo check's first build in a fresh project may take seconds on a loaded machine
  EditChecker checker(settings);
  EditRunner edits{checker, workspace, rust.environment()};
  EditDiagnostics first =
      edits.write("src/main.rs", "fn main() {\n    let x: i32 = \"a\";\n    println!(\"{}\", x);\n}\n");
  BOOST_TEST(first.checker == "cargo check", describe(first));
  BOOST_TEST(has_problem(first.problems, "src/main.rs", 2, "mismatched types"), describe(first));
  wait_until_settled(checker, Language::rust, rust.environment());  // the proxy has exited, and that was seen
  EditDiagnostics second = edits.write("src/main.rs", "fn main() {\n    println!(\"{}\", 1);\n}\n");
  BOOST_TEST(second.checker == "cargo check", describe(second));
  BOOST_TEST(second.status == "clean", describe(second));
  BOOST_TEST(second.note.find("rust-analyzer") == 0u, second.note);
  BOOST_TEST(checker.pool().cooldown_until("rust-analyzer", root()).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
