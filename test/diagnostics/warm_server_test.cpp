#include "diagnostics_fixture.h"
#include "exec/attempt_sandbox.h"
#include "support/sandbox_support.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

#include <unistd.h>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// A pull-only language server (as pyright becomes once it registers pull) that logs each message's
/// method and holds its first diagnostics answer until the file `gate` exists: a first analysis that
/// takes as long as the test wants. Its one problem: any line holding `undefined_name`.
std::string gated_server(const std::filesystem::path& log, const std::filesystem::path& gate) {
  return R"(#!/usr/bin/python3
import json, os, sys, time
LOG, GATE = )" + std::string("\"") + log.string() + "\", \"" + gate.string() + "\"\n" +
         k_python_lsp_framing + R"(texts = {}
answered = False
while True:
    message = read()
    method = message.get("method", "")
    with open(LOG, "a") as log:
        log.write(method + "\n")
    params = message.get("params") or {}
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": {
            "textDocumentSync": 1, "diagnosticProvider": {"interFileDependencies": True}}}})
    elif method == "textDocument/didOpen":
        texts[params["textDocument"]["uri"]] = params["textDocument"]["text"]
    elif method == "textDocument/didChange":
        texts[params["textDocument"]["uri"]] = params["contentChanges"][-1]["text"]
    elif method == "textDocument/diagnostic":
        while not answered and not os.path.exists(GATE):
            time.sleep(0.01)
        answered = True
        items = []
        for number, line in enumerate(texts.get(params["textDocument"]["uri"], "").split("\n")):
            if "undefined_name" in line:
                items.append({"range": {"start": {"line": number, "character": line.index("undefined_name")},
                                        "end": {"line": number, "character": line.index("undefined_name") + 14}},
                              "severity": 1, "message": "\"undefined_name\" is not defined"})
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"kind": "full", "items": items}})
    elif method == "shutdown":
        send({"jsonrpc": "2.0", "id": message["id"], "result": None})
    elif method == "exit":
        sys.exit(0)
)";
}

/// A language server that writes the processId of its initialize request to the file given as its
/// argument, and answers it.
const std::string k_pid_logging_server = std::string("import json, sys\n") + k_python_lsp_framing + R"(while True:
    message = read()
    if message.get("method") == "initialize":
        with open(sys.argv[1], "w") as log:
            log.write("processId=%s\n" % json.dumps(message["params"]["processId"]))
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": {}}})
)";

/// The lines of `text`.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::string::size_type start = 0;
  for (auto end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

/// How many edits of `session` were answered by `checker`.
long answered_by(const std::vector<EditDiagnostics>& session, const std::string& checker) {
  return std::count_if(session.begin(), session.end(),
                       [&](const EditDiagnostics& edit) { return edit.checker == checker; });
}

/// The tests' generous budget, with as much patience for a server's start and first analysis.
DiagnosticsSettings patient_settings() {
  DiagnosticsSettings settings = generous_budget();
  settings.initialize_timeout = k_patience;
  return settings;
}

/// Waits for the event the later edits depend on: the server that the first edit started (and
/// primed) has answered once, with no edit waiting for it.
void wait_for_first_answer(EditChecker& checker, const std::string& server, const std::filesystem::path& root) {
  LanguageServer* running = checker.pool().running(server, root);
  BOOST_REQUIRE_MESSAGE(running, server + " was not started by the first edit");
  BOOST_REQUIRE_MESSAGE(running->wait_answered(std::chrono::steady_clock::now() + k_patience),
                        server + " never answered its first document: " + running->failure());
}

}  // namespace

// A language server cold at the first edit is given that edit's file while the linter answers, so
// its first analysis runs with nobody waiting; once it has answered, every later edit gets it.
BOOST_AUTO_TEST_SUITE(warm_server)

BOOST_AUTO_TEST_CASE(pyright_cold_at_the_first_edit_answers_every_edit_after_its_first_analysis) {
  std::vector<std::string> environment = tools_environment();
  require_program("pyright-langserver", environment);
  require_program("pyflakes3", environment);
  TempFolder workspace;
  workspace.write("pyproject.toml", "[project]\nname = \"demo\"\n");
  workspace.write("helper.py", "def helper() -> int:\n    return 1\n");
  workspace.write("main.py", "from helper import helper\n\nprint(helper())\n");
  EditChecker checker(patient_settings());
  EditRunner edits{checker, workspace, environment};
  std::vector<EditDiagnostics> session;

  // A type error: pyflakes, answering while pyright starts, cannot see it.
  session.push_back(edits.write("main.py", "from helper import helper\n\nx: int = \"hello\"\nprint(helper(), x)\n"));
  BOOST_TEST(session[0].checker == "pyflakes", describe(session[0]));
  BOOST_TEST(session[0].note.find("pyright-langserver is starting") != std::string::npos, session[0].note);
  wait_for_first_answer(checker, "pyright-langserver", std::filesystem::canonical(workspace.path()));

  session.push_back(edits.write("main.py", "from helper import helper\n\nx: int = 1\nprint(helper(), x)\n"));
  // The error of the first edit, which only pyright's primed analysis saw, is the one resolved.
  BOOST_TEST(session[1].status == "clean", describe(session[1]));
  BOOST_TEST(session[1].resolved.size() == 1u, describe(session[1]));
  session.push_back(edits.write("helper.py", "def assist() -> int:\n    return 1\n"));
  BOOST_TEST(has_problem(session[2].introduced, "main.py", 1, "helper", true), describe(session[2]));
  session.push_back(edits.write("helper.py", "def helper() -> int:\n    return 1\n"));
  BOOST_TEST(session[3].status == "clean", describe(session[3]));
  session.push_back(edits.write("main.py", "from helper import helper\n\nprint(helper() + undefined_name)\n"));
  BOOST_TEST(has_problem(session[4].introduced, "main.py", 3, "\"undefined_name\" is not defined"),
             describe(session[4]));

  for (std::size_t i = 1; i < session.size(); ++i) {
    BOOST_TEST(session[i].checker == "pyright-langserver", "edit " << i + 1 << ": " << describe(session[i]));
  }
  BOOST_TEST(answered_by(session, "pyright-langserver") == 4);
  BOOST_TEST_MESSAGE("pyright: " << answered_by(session, "pyright-langserver") << " of 5 edits got the server");
}

BOOST_AUTO_TEST_CASE(gopls_cold_at_the_first_edit_answers_every_edit_after_its_first_analysis) {
  std::vector<std::string> environment = tools_environment();
  require_program("gopls", environment);
  require_program("go", environment);
  TempFolder workspace;
  workspace.write("go.mod", "module example.com/m\n\ngo 1.19\n");
  workspace.write("helper.go", "package main\n\nfunc Helper() int { return 1 }\n");
  workspace.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Helper())\n}\n");
  EditChecker checker(patient_settings());
  EditRunner edits{checker, workspace, environment};
  std::vector<EditDiagnostics> session;

  session.push_back(edits.write(
      "main.go",
      "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar x int = \"hello\"\n\tfmt.Println(Helper(), x)\n}\n"));
  BOOST_TEST(session[0].checker == "go test -c + go vet", describe(session[0]));
  BOOST_TEST(session[0].note.find("gopls is starting") != std::string::npos, session[0].note);
  wait_for_first_answer(checker, "gopls", std::filesystem::canonical(workspace.path()));

  session.push_back(
      edits.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Helper())\n}\n"));
  BOOST_TEST(session[1].status == "clean", describe(session[1]));
  BOOST_TEST(session[1].resolved.size() == 1u, describe(session[1]));
  session.push_back(edits.write("helper.go", "package main\n\nfunc Assist() int { return 1 }\n"));
  BOOST_TEST(has_problem(session[2].introduced, "main.go", 6, "Helper", true), describe(session[2]));
  session.push_back(edits.write("helper.go", "package main\n\nfunc Helper() int { return 1 }\n"));
  BOOST_TEST(session[3].status == "clean", describe(session[3]));
  session.push_back(edits.write(
      "main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Helper(), undefinedName)\n}\n"));
  BOOST_TEST(has_problem(session[4].introduced, "main.go", 6, "undefinedName"), describe(session[4]));

  for (std::size_t i = 1; i < session.size(); ++i) {
    BOOST_TEST(session[i].checker == "gopls", "edit " << i + 1 << ": " << describe(session[i]));
  }
  BOOST_TEST(answered_by(session, "gopls") == 4);
  BOOST_TEST_MESSAGE("gopls: " << answered_by(session, "gopls") << " of 5 edits got the server");
}

// An edit made while the server's first analysis is still running gets the linter and sends the
// server nothing (no request piles up behind the analysis); the first edit after the analysis
// answered gets the server, which already knows the file from the priming.
BOOST_AUTO_TEST_CASE(an_edit_during_the_first_analysis_gets_the_linter_and_sends_the_server_nothing) {
  TempFolder marks;
  ToolShelf shelf({"pyflakes3"});
  shelf.add_script("pyright-langserver", gated_server(marks.path() / "log", marks.path() / "gate"));
  TempFolder workspace;
  workspace.write("app.py", "import os\n\nprint(os.getcwd())\n");
  DiagnosticsSettings settings = patient_settings();
  settings.linter_reserve = settings.budget - 500ms;  // the server's share is short, the linter's long
  EditChecker checker(settings);
  EditRunner edits{checker, workspace, shelf.environment()};
  const std::filesystem::path root = std::filesystem::canonical(workspace.path());

  EditDiagnostics first = edits.write("app.py", "import os\n\nprint(os.getcwd(), 1)\n");
  BOOST_TEST(first.checker == "pyflakes", describe(first));
  LanguageServer* server = checker.pool().running("pyright-langserver", root);
  BOOST_REQUIRE(server);
  BOOST_REQUIRE(wait_until([&] { return lines_of(marks.read("log")).size() >= 4; }));  // it holds the pull

  EditDiagnostics during = edits.write("other.py", "print(undefined_name)\n");
  BOOST_TEST(during.checker == "pyflakes", describe(during));
  BOOST_TEST(during.note.find("pyright-langserver is still on its first analysis") != std::string::npos, during.note);
  BOOST_TEST(server->warming());

  marks.write("gate", "");
  BOOST_REQUIRE(server->wait_answered(std::chrono::steady_clock::now() + k_patience));
  EditDiagnostics after = edits.write("app.py", "import os\n\nprint(os.getcwd(), undefined_name)\n");
  BOOST_TEST(after.checker == "pyright-langserver", describe(after));
  BOOST_TEST(has_problem(after.introduced, "app.py", 3, "\"undefined_name\" is not defined"), describe(after));
  checker.pool().shutdown_all();

  // The edit during the analysis sent nothing (other.py was never opened), and the edit after it
  // took the file's earlier problems from the priming's answer: one change, one more pull.
  std::vector<std::string> log = lines_of(marks.read("log"));
  std::vector<std::string> until_shutdown(log.begin(), std::find(log.begin(), log.end(), "shutdown"));
  std::vector<std::string> expected = {"initialize",        "initialized",          "textDocument/didOpen",
                                       "textDocument/diagnostic", "textDocument/didChange", "textDocument/didSave",
                                       "textDocument/diagnostic"};
  BOOST_TEST(until_shutdown == expected, boost::test_tools::per_element());
}

// In the attempt's sandbox (a PID namespace of its own) agent-run's pid names no process, or another
// one: pyright and typescript-language-server poll the initialize request's processId every 3 s and
// exit when it is gone, so a server told it there died between edits. There it is told null.
BOOST_AUTO_TEST_CASE(a_server_in_the_sandbox_is_told_no_process_id_to_watch) {
  if (!sandbox_tests_can_run()) return;
  TempFolder scratch;
  TempFolder workspace;  // the sandbox shows it at the same path, writable: the script and its logs are there
  const std::filesystem::path root = std::filesystem::canonical(workspace.path());
  workspace.write("server.py", k_pid_logging_server);
  SandboxRequest request;
  request.workspace = root;
  auto sandbox = AttemptSandbox::start(request, scratch.path(), test_environment());
  BOOST_REQUIRE_MESSAGE(sandbox.has_value(), (sandbox ? std::string() : sandbox.error().message));
  ServerPool pool(patient_settings());
  auto start = [&](const std::string& name, const AttemptSandbox* in) {
    ServerSpec spec{name, {"/usr/bin/python3", (root / "server.py").string(), (root / name).string()}, nullptr, 50ms, {}};
    auto server = pool.acquire(spec, root, test_environment(), in);
    BOOST_REQUIRE_MESSAGE(server.has_value(), (server ? std::string() : server.error().message));
    BOOST_REQUIRE_MESSAGE((*server)->wait_ready(std::chrono::steady_clock::now() + k_patience), (*server)->failure());
  };
  start("inside", sandbox->get());
  start("outside", nullptr);
  BOOST_TEST(workspace.read("inside") == "processId=null\n");
  BOOST_TEST(workspace.read("outside") == "processId=" + std::to_string(::getpid()) + "\n");
}

BOOST_AUTO_TEST_SUITE_END()
