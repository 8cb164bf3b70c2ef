#include "base/json.h"
#include "base/text.h"
#include "diagnostics/languages.h"
#include "diagnostics_fixture.h"
#include "exec/process.h"
#include "support/waiting.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <csignal>
#include <map>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// A push language server (as gopls is) that holds a picture of every .py file of its root: read
/// from disk when it starts and again for each file a didChangeWatchedFiles names, with the open
/// documents' texts over it. After each message that changes the picture it writes it to
/// `marks`/state.json ({relative path: text}), then publishes every file's problems: each call of
/// a name that no file of the picture defines with `def`. While `marks`/busy exists it neither
/// answers initialize nor publishes (nor reads on): a server busy for as long as the test wants. It registers a file watcher
/// (as gopls and pyright do) and appends its pid to `marks`/pids.
std::string picture_server(const std::filesystem::path& marks) {
  return "#!/usr/bin/python3\nimport json, os, re, sys, time\nMARKS = \"" + marks.string() + "\"\n" +
         k_python_lsp_framing + R"(root = None
disk = {}
overlay = {}
with open(os.path.join(MARKS, "pids"), "a") as pids:
    pids.write("%d\n" % os.getpid())
def read_disk(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None
def picture():
    seen = dict(disk)
    for path, (version, text) in overlay.items():
        seen[path] = text
    return seen
def record():
    state = {os.path.relpath(path, root): text for path, text in picture().items()}
    with open(os.path.join(MARKS, "state.tmp"), "w") as out:
        json.dump(state, out)
    os.replace(os.path.join(MARKS, "state.tmp"), os.path.join(MARKS, "state.json"))
def publish():
    while os.path.exists(os.path.join(MARKS, "busy")):
        time.sleep(0.01)
    seen = picture()
    defined = set()
    for text in seen.values():
        defined.update(re.findall(r"^def (\w+)\(", text, re.M))
    for path, text in seen.items():
        items = []
        for number, line in enumerate(text.split("\n")):
            if line.startswith("def "):
                continue
            for match in re.finditer(r"(\w+)\(", line):
                if match.group(1) != "print" and match.group(1) not in defined:
                    items.append({"range": {"start": {"line": number, "character": match.start()},
                                            "end": {"line": number, "character": match.end() - 1}},
                                  "severity": 1, "message": "undeclared name: " + match.group(1)})
        params = {"uri": "file://" + path, "diagnostics": items}
        if path in overlay:
            params["version"] = overlay[path][0]
        send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params})
while True:
    message = read()
    method = message.get("method", "")
    params = message.get("params") or {}
    if method == "initialize":
        while os.path.exists(os.path.join(MARKS, "busy")):
            time.sleep(0.01)
        root = params["rootUri"][len("file://"):]
        for folder, folders, files in os.walk(root):
            for name in files:
                if name.endswith(".py") and read_disk(os.path.join(folder, name)) is not None:
                    disk[os.path.join(folder, name)] = read_disk(os.path.join(folder, name))
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": {"textDocumentSync": 1}}})
    elif method == "initialized":
        send({"jsonrpc": "2.0", "id": "watch-1", "method": "client/registerCapability", "params": {"registrations": [
            {"id": "watchers", "method": "workspace/didChangeWatchedFiles",
             "registerOptions": {"watchers": [{"globPattern": "**/*.py"}]}}]}})
    elif method in ("textDocument/didOpen", "textDocument/didChange"):
        document = params["textDocument"]
        text = document["text"] if method.endswith("didOpen") else params["contentChanges"][-1]["text"]
        overlay[document["uri"][len("file://"):]] = (document["version"], text)
        record()
        publish()
    elif method == "textDocument/didClose":
        overlay.pop(params["textDocument"]["uri"][len("file://"):], None)
        record()
        publish()
    elif method == "workspace/didChangeWatchedFiles":
        for change in params["changes"]:
            path = change["uri"][len("file://"):]
            text = read_disk(path) if change["type"] != 3 else None
            if text is None or not path.endswith(".py"):
                disk.pop(path, None)
            else:
                disk[path] = text
        record()
        publish()
    elif method == "shutdown":
        send({"jsonrpc": "2.0", "id": message["id"], "result": None})
    elif method == "exit":
        sys.exit(0)
)";
}

/// A workspace of two Python files, a shelf with the picture server as pyright-langserver (and
/// pyflakes3 when asked), and the server's marks.
struct SyncFixture {
  TempFolder marks;
  TempFolder workspace;
  std::optional<ToolShelf> shelf;
  DiagnosticsSettings settings = generous_budget();

  SyncFixture() {
    workspace.write("pyproject.toml", "[project]\nname = \"demo\"\n");
    workspace.write("a.py", "def helper():\n    return 1\n");
    workspace.write("b.py", "from a import helper\n\nprint(helper())\n");
    settings.initialize_timeout = k_patience;
  }
  std::filesystem::path root() const { return std::filesystem::canonical(workspace.path()); }
  void make_shelf(bool with_linter) {
    shelf.emplace(with_linter ? std::vector<std::string>{"pyflakes3"} : std::vector<std::string>{});
    shelf->add_script("pyright-langserver", picture_server(marks.path()));
  }
  WorkspaceRequest request() const { return WorkspaceRequest{root(), shelf->environment(), nullptr, {}}; }

  /// The .py files of the workspace as they are on disk.
  std::map<std::string, std::string> disk() const {
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(root())) {
      if (entry.path().extension() == ".py") files[entry.path().filename().string()] = workspace.read(entry.path().filename());
    }
    return files;
  }
  /// The server's picture, as it last wrote it (empty before it wrote one).
  std::map<std::string, std::string> picture() const {
    std::map<std::string, std::string> files;
    std::error_code ec;
    if (!std::filesystem::exists(marks.path() / "state.json", ec)) return files;
    auto json = parse_json(marks.read("state.json"));
    if (!json || !json->is_object()) return files;
    for (const auto& [name, text] : json->as_object()) files[name] = text.as_string();
    return files;
  }
  /// Runs `command` with sh in the workspace: a change made on disk by a process, not by the edit tools.
  void run(const std::string& command) const {
    auto ran = run_process(shell_command(command, root(), 60s));
    BOOST_REQUIRE(ran && ran->exit_code == 0);
  }
  LanguageServer* server(EditChecker& checker) const { return checker.pool().running("pyright-langserver", root()); }
};

std::string describe_files(const std::map<std::string, std::string>& files) {
  std::string text;
  for (const auto& [name, content] : files) text += "\n--- " + name + "\n" + content;
  return text;
}

}  // namespace

// What a language server holds is what is on disk, whatever changed it: an edit the linter
// answered while the server was busy, a command (sed -i), a server that died and was started again.
BOOST_FIXTURE_TEST_SUITE(server_sync, SyncFixture)

// The issue's case: the definition renamed by an edit that the linter answered because the server
// was still busy, then the caller edited: the server must hold the rename, so no false problem.
BOOST_AUTO_TEST_CASE(an_edit_the_linter_answered_while_the_server_was_busy_reaches_it_before_the_next) {
  make_shelf(true);
  marks.write("busy", "");  // it does not even answer initialize yet
  EditChecker checker(settings);
  EditRunner edits{checker, workspace, shelf->environment()};

  EditDiagnostics first = edits.write("a.py", "# the helper\ndef helper():\n    return 1\n");
  BOOST_TEST(first.checker == "pyflakes", describe(first));
  BOOST_TEST(first.note.find("pyright-langserver is starting") != std::string::npos, first.note);
  EditDiagnostics rename = edits.write("a.py", "# the helper\ndef assist():\n    return 1\n");
  BOOST_TEST(rename.checker == "pyflakes", describe(rename));
  BOOST_TEST(rename.note.find("pyright-langserver is starting") != std::string::npos, rename.note);

  std::filesystem::remove(marks.path() / "busy");
  LanguageServer* running = server(checker);
  BOOST_REQUIRE(running);
  BOOST_REQUIRE(running->wait_answered(std::chrono::steady_clock::now() + k_patience));
  EditDiagnostics caller = edits.write("b.py", "from a import assist\n\nprint(assist())\n");
  BOOST_TEST(caller.checker == "pyright-langserver", describe(caller));
  BOOST_TEST(caller.status == "clean", describe(caller));
  BOOST_TEST(picture() == disk(), "the server holds:" << describe_files(picture()) << "\ndisk:" << describe_files(disk()));
}

// Files changed by a command (both open documents renamed by sed -i, a new file written by the
// shell) are sent before the next edit's answer is taken, even when nobody said a command ran.
BOOST_AUTO_TEST_CASE(files_a_command_changed_reach_the_server_before_the_next_edit_is_answered) {
  make_shelf(true);
  EditChecker checker(settings);
  EditRunner edits{checker, workspace, shelf->environment()};
  checker.warm_workspace(request());
  LanguageServer* running = server(checker);
  BOOST_REQUIRE_MESSAGE(running, "warm_workspace started no server");
  BOOST_REQUIRE(running->wait_answered(std::chrono::steady_clock::now() + k_patience));
  EditDiagnostics first = edits.write("b.py", "from a import helper\n\nprint(helper(), 1)\n");
  BOOST_TEST(first.checker == "pyright-langserver", describe(first));
  BOOST_TEST(first.status == "clean", describe(first));

  run("sed -i s/helper/assist/g a.py b.py && printf 'def extra():\\n    return 2\\n' > c.py");
  EditDiagnostics next = edits.write("d.py", "from a import assist\nfrom c import extra\n\nprint(assist(), extra())\n");
  BOOST_TEST(next.checker == "pyright-langserver", describe(next));
  BOOST_TEST(next.status == "clean", describe(next));
  BOOST_TEST(picture() == disk(), "the server holds:" << describe_files(picture()) << "\ndisk:" << describe_files(disk()));
}

// After a command the bash tool tells the warm servers (workspace_changed): the server is told at
// once, with no edit, so that its analysis runs while the model thinks.
BOOST_AUTO_TEST_CASE(after_a_bash_command_the_warm_server_is_told_what_changed_at_once) {
  make_shelf(true);
  EditChecker checker(settings);
  EditRunner edits{checker, workspace, shelf->environment()};
  checker.warm_workspace(request());
  LanguageServer* running = server(checker);
  BOOST_REQUIRE_MESSAGE(running, "warm_workspace started no server");
  BOOST_REQUIRE(running->wait_answered(std::chrono::steady_clock::now() + k_patience));
  BOOST_TEST(edits.write("b.py", "from a import helper\n\nprint(helper(), 1)\n").checker == "pyright-langserver");

  ToolRegistry tools = make_tool_registry(std::nullopt);
  ToolScope scope;
  scope.workspace = root();
  scope.environment = environment_with_path("/usr/bin:/bin");
  scope.diagnostics = &checker;
  SessionState session;
  Json command = Json::object().set("command", "sed -i s/helper/assist/g a.py && mv b.py moved.py && printf 'x = 1\\n' > c.py");
  ToolOutput ran = tools.find("bash")->run(command, scope, session, 60s);
  BOOST_REQUIRE_MESSAGE(!ran.is_error, ran.content);
  BOOST_TEST(wait_until([&] { return picture() == disk(); }),
             "the server holds:" << describe_files(picture()) << "\ndisk:" << describe_files(disk()));
}

// A server that dies is started again (a crash after it had answered is no failed start), and
// the new one answers from the disk as it is now: a rename made by a command while none ran.
BOOST_AUTO_TEST_CASE(a_server_that_died_is_started_again_and_answers_from_the_disk_as_it_is) {
  make_shelf(false);  // no linter: the edit waits for the server
  EditChecker checker(settings);
  EditRunner edits{checker, workspace, shelf->environment()};
  EditDiagnostics first = edits.write("a.py", "# the helper\ndef helper():\n    return 1\n");
  BOOST_TEST(first.checker == "pyright-langserver", describe(first));
  LanguageServer* running = server(checker);
  BOOST_REQUIRE(running);

  const std::string pid(trim(wait_for_line_in(marks.path() / "pids")));
  BOOST_REQUIRE(!pid.empty());
  BOOST_REQUIRE(::kill(std::stoi(pid), SIGKILL) == 0);
  BOOST_REQUIRE(wait_until([&] { return running->state() == ServerState::failed; }));
  run("sed -i s/helper/assist/g a.py");

  EditDiagnostics caller = edits.write("b.py", "from a import assist\n\nprint(assist())\n");
  BOOST_TEST(caller.checker == "pyright-langserver", describe(caller));
  BOOST_TEST(caller.status == "clean", describe(caller));
  BOOST_TEST(caller.note.find("pyright-langserver stopped working and was started again") != std::string::npos,
             caller.note);
  BOOST_TEST(!checker.pool().cooldown_until("pyright-langserver", root()).has_value());
  BOOST_TEST(picture() == disk(), "the server holds:" << describe_files(picture()) << "\ndisk:" << describe_files(disk()));
  const std::string pids = marks.read("pids");
  BOOST_TEST(pids.find(pid + "\n") == 0u);
  BOOST_TEST(std::count(pids.begin(), pids.end(), '\n') == 2, pids);
}

// The workspace's servers start when the attempt starts: the first edit already gets the server,
// not the linter.
BOOST_AUTO_TEST_CASE(servers_warmed_when_the_attempt_starts_answer_the_first_edit) {
  make_shelf(true);
  EditChecker checker(settings);
  EditRunner edits{checker, workspace, shelf->environment()};
  checker.warm_workspace(request());
  LanguageServer* running = server(checker);
  BOOST_REQUIRE_MESSAGE(running, "warm_workspace started no server");
  BOOST_REQUIRE(running->wait_answered(std::chrono::steady_clock::now() + k_patience));
  BOOST_TEST(picture()["a.py"] == workspace.read("a.py"));  // its first document: the shallowest file
  EditDiagnostics first = edits.write("b.py", "from a import helper\n\nprint(helper(), undefined_name())\n");
  BOOST_TEST(first.checker == "pyright-langserver", describe(first));
  BOOST_TEST(has_problem(first.introduced, "b.py", 3, "undeclared name: undefined_name"), describe(first));
}

BOOST_AUTO_TEST_SUITE_END()
