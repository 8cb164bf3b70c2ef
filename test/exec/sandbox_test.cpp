#include "base/cancellation.h"
#include "base/text.h"
#include "exec/attempt_sandbox.h"
#include "exec/process_group.h"
#include "exec/process_table.h"
#include "support/fixtures.h"
#include "support/skip_variables.h"
#include "support/loopback_listener.h"
#include "support/process_probes.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <csignal>
#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// One sandbox over a fresh workspace, as an attempt has it, with the folder it lives in.
struct SandboxScene {
  test::TempFolder scratch;
  test::TempFolder workspace;
  std::unique_ptr<AttemptSandbox> sandbox;

  explicit SandboxScene(SandboxSpec spec = {}, const Survey* survey = nullptr,
                        std::function<void(SandboxRequest&)> adjust = {})
      : workspace(test::visible_scratch()) {
    start(spec, survey, adjust);
  }
  void start(SandboxSpec spec, const Survey* survey = nullptr, std::function<void(SandboxRequest&)> adjust = {}) {
    SandboxRequest request;
    request.spec = spec;
    request.workspace = workspace.path();
    request.survey = survey;
    if (adjust) adjust(request);
    auto started = AttemptSandbox::start(request, scratch.path(), test::test_environment());
    BOOST_REQUIRE_MESSAGE(started.has_value(), (started ? std::string() : started.error().message));
    sandbox = std::move(*started);
  }
  /// Runs `command` with sh inside the sandbox through `table`, in `cwd` (default: the workspace).
  ProcessResult run(ProcessTable& table, const std::string& command, std::chrono::milliseconds timeout = 60s,
                    fs::path cwd = {}) const {
    ProcessSpec spec = shell_command(command, cwd.empty() ? workspace.path() : cwd, timeout);
    spec.environment = test::test_environment();
    auto result = table.run(sandbox->wrap(spec));
    BOOST_REQUIRE_MESSAGE(result.has_value(), (result ? std::string() : result.error().message));
    return *result;
  }
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sandbox, *boost::unit_test::precondition(test::sandbox_usable))

BOOST_AUTO_TEST_CASE(the_network_is_cut_but_the_loopback_of_the_attempt_remains) {
  SandboxScene scene;
  test::LoopbackListener listener;
  ProcessTable table;
  std::string connect = "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " +
                        std::to_string(listener.port()) + "), timeout=3); print(\"connected\")'";
  BOOST_TEST(test::run_shell(connect, scene.workspace.path()).output == "connected\n");  // it works outside
  BOOST_TEST(listener.connections() == 1);
  ProcessResult inside = scene.run(table, connect);
  BOOST_TEST_INFO(inside.output);
  BOOST_TEST(inside.exit_code != 0);
  BOOST_TEST(inside.output.find("Connection refused") != std::string::npos);
  BOOST_TEST(listener.connections() == 1);
  BOOST_TEST(scene.run(table, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '").output == "lo\n");
}

BOOST_AUTO_TEST_CASE(the_network_can_be_left_on) {
  SandboxSpec with_network;
  with_network.network = SandboxNetwork::on;
  SandboxScene scene(with_network);
  test::LoopbackListener listener;
  ProcessTable table;
  ProcessResult inside = scene.run(table, "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " +
                                              std::to_string(listener.port()) + "), timeout=3); print(\"connected\")'");
  BOOST_TEST(inside.output == "connected\n");
}

BOOST_AUTO_TEST_CASE(a_background_server_answers_the_next_command_over_the_attempt_s_loopback) {
  SandboxScene scene;
  ProcessTable table;
  scene.workspace.write("serve.py",
                        "import socket\n"
                        "s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
                        "s.bind(('127.0.0.1', 47231)); s.listen(1); print('listening', flush=True)\n"
                        "c, _ = s.accept(); c.sendall(b'hi from the background'); c.close()\n");
  ProcessSpec server = shell_command("python3 serve.py", scene.workspace.path(), 0ms);
  server.environment = test::test_environment();
  auto started = table.start(scene.sandbox->wrap(server), "python3 serve.py");
  BOOST_REQUIRE(started.has_value());
  std::string said;
  while (said.find("listening") == std::string::npos) {  // the event, not a time
    BackgroundRead read = (*started)->read_new(30s);
    said += read.output;
    BOOST_REQUIRE_MESSAGE(read.running, "the server ended: " + said);
  }
  ProcessResult client =
      scene.run(table,
                "python3 -c 'import socket; s=socket.create_connection((\"127.0.0.1\", 47231), timeout=10); "
                "print(s.recv(100).decode())'");
  BOOST_TEST(client.output == "hi from the background\n");
}

BOOST_AUTO_TEST_CASE(only_the_workspace_a_private_tmp_and_home_are_writable) {
  SandboxScene scene;
  test::TempFolder elsewhere(test::visible_scratch());
  ProcessTable table;
  std::string outside_file = (elsewhere.path() / "escaped.txt").string();
  std::string machine_tmp = "/tmp/agent-run-sandbox-scratch-" + std::to_string(::getpid());
  ProcessResult result =
      scene.run(table, "echo inside > made.txt && echo ok; echo outside > " + test::shell_quote(outside_file) +
                           "; touch /etc/agent-run-sandbox-test; echo tmp > " + machine_tmp + " && cat " + machine_tmp +
                           " && echo home > $HOME/h && cat ~/h");
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(scene.workspace.read("made.txt") == "inside\n");
  BOOST_TEST(!fs::exists(outside_file));
  BOOST_TEST(!fs::exists("/etc/agent-run-sandbox-test"));
  BOOST_TEST(result.output.find("Read-only file system") != std::string::npos);
  BOOST_TEST(result.output.ends_with("tmp\nhome\n"));  // a private /tmp and HOME work
  BOOST_TEST(!fs::exists(machine_tmp));                // ... and are not the machine's
}

BOOST_AUTO_TEST_CASE(the_private_tmp_and_home_last_the_attempt_and_vanish_with_the_sandbox) {
  SandboxScene scene;
  ProcessTable table;
  BOOST_TEST(scene.run(table, "echo one > /tmp/a && echo two > ~/b && echo $HOME $TMPDIR").output ==
             "/tmp/home /tmp\n");
  BOOST_TEST(scene.run(table, "cat /tmp/a ~/b").output == "one\ntwo\n");  // the next command of the attempt
  fs::path folder = scene.sandbox->layout().private_tmp.parent_path();
  BOOST_TEST(fs::exists(folder / "tmp" / "a"));
  scene.sandbox->stop();
  BOOST_TEST(!fs::exists(folder));
}

BOOST_AUTO_TEST_CASE(a_command_has_no_capability_and_cannot_remount_or_unmount) {
  SandboxScene scene;
  ProcessTable table;
  // Run by root (CI jobs, containers), a command without its own user namespace kept every
  // capability and undid the read-only mounts; here it has none in any set and can gain none.
  ProcessResult caps = scene.run(table, "grep -E '^(CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status");
  BOOST_TEST(caps.output ==
             "CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\n"
             "CapAmb:\t0000000000000000\nNoNewPrivs:\t1\n");
  std::string canary = "/etc/agent-run-remount-canary-" + std::to_string(::getpid());
  ProcessResult remount = scene.run(table,
                                    "mount -o remount,rw /; echo remount=$?; umount /tmp; echo umount=$?; "
                                    "unshare -Urm sh -c 'umount /tmp' ; echo nested=$?; echo pwned > " +
                                        canary + "; echo write=$?");
  BOOST_TEST_INFO(remount.output);
  BOOST_TEST(remount.output.find("remount=0") == std::string::npos);
  BOOST_TEST(remount.output.find("umount=0") == std::string::npos);
  BOOST_TEST(remount.output.find("nested=0") == std::string::npos);
  BOOST_TEST(remount.output.find("write=0") == std::string::npos);
  BOOST_TEST(remount.output.find("Read-only file system") != std::string::npos);
  BOOST_TEST(!fs::exists(canary));
}

BOOST_AUTO_TEST_CASE(the_machine_s_run_folder_and_its_sockets_are_hidden) {
  SandboxScene scene;
  ProcessTable table;
  std::error_code ec;
  BOOST_REQUIRE_MESSAGE(!fs::is_empty("/run", ec), "this test needs a machine whose /run holds something");
  BOOST_TEST(scene.run(table, "ls -A /run | grep -v '^agent-run-sandbox-'; echo end").output == "end\n");
}

BOOST_AUTO_TEST_CASE(each_command_has_its_own_processes_and_proc_and_never_sees_the_runner) {
  SandboxScene scene;
  ProcessTable table;
  std::string runner = std::to_string(::getpid());
  ProcessResult result = scene.run(table, "echo $$; ls /proc | grep -cE '^[0-9]+$'; cat /proc/" + runner +
                                              "/environ; echo env=$?; tr '\\0' '\\n' < /proc/1/environ | grep -c "
                                              "AGENT_RUN_ATTEMPT");
  BOOST_TEST_INFO(result.output);
  std::vector<std::string> lines = split(result.output, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  BOOST_REQUIRE(lines.size() >= 4u);
  BOOST_TEST(lines[0] == "2");           // the command is pid 2 of its own namespace (the entry's shell is its init)
  BOOST_TEST(std::stoi(lines[1]) <= 5);  // the init, sh, ls, grep and the like: nothing of the machine's
  BOOST_TEST(result.output.find("env=1") != std::string::npos);  // agent-run's /proc entry is not there
  BOOST_TEST(lines.back() == "1");  // /proc/1/environ is the entry's, the command's own (it carries the marker)
}

BOOST_AUTO_TEST_CASE(a_timeout_kills_the_sandboxed_command_and_its_children) {
  SandboxScene scene;
  ProcessTable table;
  ProcessResult result = scene.run(table, "sleep 1000 & sleep 1000", 300ms);
  BOOST_TEST(result.timed_out);
  for (pid_t pid : processes_marked(table.marker())) BOOST_TEST(test::is_gone_soon(pid));
}

BOOST_AUTO_TEST_CASE(a_stopped_command_gets_sigterm_first_and_may_clean_up) {
  SandboxScene scene;
  ProcessTable table;
  Cancellation cancellation;
  const fs::path ready = scene.workspace.path() / "ready";
  std::thread stopper([&] {  // stops the command once it says its trap is set
    for (int i = 0; i < 12000 && !fs::exists(ready); ++i) std::this_thread::sleep_for(10ms);
    cancellation.cancel(SIGTERM);
  });
  ProcessSpec spec = shell_command(
      "trap 'echo cleaned-up > term.txt; exit 0' TERM; touch ready; "
      "while :; do sleep 0.05; done",
      scene.workspace.path(), 600s);
  spec.environment = test::test_environment();
  spec.cancellation = &cancellation;
  spec.kill_grace = 120s;  // a SIGKILL before the trap ran would fail the case, not hang it
  auto result = table.run(scene.sandbox->wrap(spec));
  stopper.join();
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(read_text(scene.workspace.path() / "term.txt") == "cleaned-up\n");  // not an init's ignored SIGTERM
}

BOOST_AUTO_TEST_CASE(an_escape_inside_the_sandbox_dies_with_its_command) {
  SandboxScene scene;
  ProcessTable table;
  ProcessResult result = scene.run(table,
                                   "setsid sleep 1000 >/dev/null 2>&1 & p=$!; "
                                   "until [ \"$(cat /proc/$p/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done; "
                                   "echo started");
  BOOST_TEST(result.output == "started\n");
  // Its PID namespace ends with the command, and the kernel kills what is left in it: nobody else
  // does (the table kills escapes only when the attempt ends), but a process may still be dying.
  for (pid_t pid : processes_marked(table.marker())) BOOST_TEST(test::is_gone_soon(pid));
}

BOOST_AUTO_TEST_CASE(the_environment_and_folder_carry_into_the_sandbox_with_its_own_home) {
  SandboxScene scene;
  ProcessTable table;
  fs::create_directory(scene.workspace.path() / "sub");
  ProcessSpec spec = shell_command("pwd; echo $GREETING $HOME", scene.workspace.path() / "sub", 30s);
  spec.environment = std::vector<std::string>{"GREETING=hello", "PATH=/usr/bin:/bin", "HOME=/root"};
  auto result = table.run(scene.sandbox->wrap(spec));
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(result->output == (scene.workspace.path() / "sub").string() + "\nhello /tmp/home\n");
}

BOOST_AUTO_TEST_CASE(masks_hide_files_folders_and_every_other_name_of_a_hidden_file) {
  test::TempFolder scratch;
  test::TempFolder workspace(test::visible_scratch());
  workspace.write(".env", "SECRET=s3cr3t-file\n");
  workspace.write("secrets/key.txt", "s3cr3t-folder\n");
  workspace.write("src/app.py", "print(1)\n");
  fs::create_directories(workspace.path() / "notes");
  fs::create_hard_link(workspace.path() / ".env", workspace.path() / "notes" / "alias.txt");
  SurveyRequest survey_request;
  survey_request.workspace = workspace.path();
  survey_request.classify = [](const std::string& absolute, std::string_view relative, PathForm) {
    bool hidden = fs::path(absolute).filename() == ".env" || relative == "secrets";
    return hidden ? PathVerdict{PathClass::hidden, "secrets"} : PathVerdict{};
  };
  auto survey = survey_paths(survey_request);
  BOOST_REQUIRE(survey.has_value());
  SandboxRequest request;
  request.workspace = workspace.path();
  request.survey = &*survey;
  auto sandbox = AttemptSandbox::start(request, scratch.path(), test::test_environment());
  BOOST_REQUIRE_MESSAGE(sandbox.has_value(), (sandbox ? std::string() : sandbox.error().message));
  ProcessTable table;
  ProcessSpec spec = shell_command(
      "cat .env notes/alias.txt; ls secrets; cat secrets/key.txt; grep -r s3cr3t . ; rm -f .env; mv secrets s2; "
      "echo x > .env; cat src/app.py",
      workspace.path(), 60s);
  spec.environment = test::test_environment();
  auto result = table.run((*sandbox)->wrap(spec));
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST_INFO(result->output);
  BOOST_TEST(result->output.find("s3cr3t") == std::string::npos);
  BOOST_TEST(result->output.find(".env: Permission denied") != std::string::npos);
  BOOST_TEST(result->output.find("notes/alias.txt: Permission denied") != std::string::npos);
  BOOST_TEST(result->output.find("Device or resource busy") != std::string::npos);
  BOOST_TEST(result->output.ends_with("print(1)\n"));
  BOOST_TEST(read_text(workspace.path() / ".env") == "SECRET=s3cr3t-file\n");  // unchanged on the machine
  BOOST_TEST(fs::exists(workspace.path() / "secrets" / "key.txt"));
}

BOOST_AUTO_TEST_CASE(git_folders_and_protected_paths_are_read_only_and_the_source_checkout_is_emptied) {
  test::TempFolder scratch;
  test::TempFolder source(test::visible_scratch());
  test::make_git_repository(source.path(), {{"README", "hello\n"}});
  test::run_shell(
      "git config http.https://github.com/.extraheader 'AUTHORIZATION: basic c2VjcmV0LXRva2Vu' && "
      "echo 'SOURCE_ONLY=1' > untracked.env && git worktree add -q ../wt-" +
          source.path().filename().string(),
      source.path());
  fs::path worktree = source.path().parent_path() / ("wt-" + source.path().filename().string());
  fs::path policy = worktree / "policy.yaml";
  std::ofstream(policy) << "version: 1\n";
  SandboxRequest request;
  request.workspace = worktree;
  request.source_checkout = source.path();
  request.git_common_folder = source.path() / ".git";
  request.git_config = source.path() / ".git" / "config";
  request.protected_paths = {policy};
  auto sandbox = AttemptSandbox::start(request, scratch.path(), test::test_environment());
  BOOST_REQUIRE_MESSAGE(sandbox.has_value(), (sandbox ? std::string() : sandbox.error().message));
  ProcessTable table;
  ProcessSpec spec = shell_command(
      "git status --short; git log --oneline | wc -l; git config --get-all http.https://github.com/.extraheader; "
      "echo token=$?; cat " +
          (source.path() / "untracked.env").string() + "; echo x >> .git; echo y >> " +
          (source.path() / ".git" / "config").string() + "; touch " +
          (source.path() / ".git" / "hooks" / "x").string() +
          "; echo evil > policy.yaml; rm -f policy.yaml; "
          "git -c user.name=t -c user.email=t@example.invalid commit -qam x; echo commit=$?",
      worktree, 60s);
  spec.environment = test::test_environment();
  auto result = table.run((*sandbox)->wrap(spec));
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST_INFO(result->output);
  BOOST_TEST(result->output.find("?? policy.yaml") != std::string::npos);  // git works in the worktree
  BOOST_TEST(result->output.find("token=1") != std::string::npos);         // the sanitized config has no token
  BOOST_TEST(result->output.find("SOURCE_ONLY") == std::string::npos);     // the source checkout is emptied
  BOOST_TEST(result->output.find("commit=0") == std::string::npos);
  BOOST_TEST(read_text(policy) == "version: 1\n");
  BOOST_TEST(!fs::exists(source.path() / ".git" / "hooks" / "x"));
  BOOST_TEST(read_text(source.path() / ".git" / "config").find("c2VjcmV0LXRva2Vu") != std::string::npos);
  BOOST_TEST(read_text(worktree / ".git").starts_with("gitdir: "));
  (*sandbox)->stop();
  test::run_shell("git worktree remove --force " + worktree.string(), source.path());
}

BOOST_AUTO_TEST_CASE(root_without_cap_sys_admin_as_in_a_container_still_gets_its_sandbox) {
  // Only root can drop CAP_SYS_ADMIN as a container does: elsewhere this fails, unless the variable
  // says that tests needing root may be skipped here (docs/developing.md).
  BOOST_REQUIRE_MESSAGE(fs::exists("/usr/bin/setpriv"), "no /usr/bin/setpriv (util-linux)");
  if (::getuid() != 0 && test::skip_requested("AGENT_RUN_SKIP_ROOT_TESTS")) {
    BOOST_TEST_MESSAGE("skipped (AGENT_RUN_SKIP_ROOT_TESTS=1): not root, so CAP_SYS_ADMIN cannot be dropped");
    return;
  }
  BOOST_REQUIRE_MESSAGE(::getuid() == 0, "not root: only root can drop CAP_SYS_ADMIN as a container does; set "
                                         "AGENT_RUN_SKIP_ROOT_TESTS=1 to skip this test here");
  test::TempFolder workspace(test::visible_scratch());
  workspace.write("open.yaml", "version: 1\nunmatched: allow\n");
  workspace.write("calls.jsonl", "{\"tool\": \"bash\", \"input\": {\"command\": \"touch made.txt; ls made.txt\"}}\n");
  // Docker and Kubernetes start a container's root without CAP_SYS_ADMIN: so does setpriv here, for
  // agent-run, its holder and the command's entry.
  test::CommandResult result = test::run_shell("/usr/bin/setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- " +
                                                   test::shell_quote(test::agent_run_binary()) +
                                                   " tool --workspace . --policy open.yaml < calls.jsonl 2>&1",
                                               workspace.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output.find("agent-run tool: sandbox: bubblewrap") != std::string::npos);
  BOOST_TEST(result.output.find("made.txt\n") != std::string::npos);
  BOOST_TEST(fs::exists(workspace.path() / "made.txt"));
}

BOOST_AUTO_TEST_CASE(nothing_runs_where_the_entry_lands_outside_the_sandbox) {
  // A holder's pid reused by another process after it died must never let a command run outside:
  // the entry finds the sandbox's token or runs nothing. The stand-in has namespaces of its own of
  // every kind the entry joins (as a holder has), but not the sandbox's mounts.
  SandboxScene scene;
  ProcessSpec outsider = shell_command("exec unshare -Urmni --uts sleep 1000", scene.workspace.path(), 0ms);
  ProcessTable table;
  auto other = table.start(outsider, "sleep 1000");
  BOOST_REQUIRE(other.has_value());
  const auto give_up = std::chrono::steady_clock::now() + 60s;  // until it has made its namespaces and exec'd sleep
  while (read_text("/proc/" + std::to_string((*other)->pid()) + "/comm") != "sleep\n") {
    BOOST_REQUIRE(std::chrono::steady_clock::now() < give_up);
    std::this_thread::sleep_for(10ms);
  }
  SandboxEntryTools tools;
  std::string written = (scene.workspace.path() / "ran-outside").string();
  ProcessSpec spec;
  spec.argv = entry_argv((*other)->pid(), scene.sandbox->layout(), tools, scene.workspace.path(),
                         {"/bin/sh", "-c", "echo ran > " + written});
  spec.timeout = 60s;
  auto result = table.run(spec);
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST_INFO(result->output);
  BOOST_TEST(result->exit_code == 125);
  BOOST_TEST(result->output.find("not inside the attempt's sandbox; nothing ran") != std::string::npos);
  BOOST_TEST(!fs::exists(written));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
