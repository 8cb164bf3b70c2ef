#include "base/text.h"
#include "exec/attempt_sandbox.h"
#include "exec/process_table.h"
#include "support/fixtures.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

#include <functional>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// Whether a path is hidden the way the policy decides it (policy/path_classes): by its name, or by
/// where it leads (a link to HOME's .ssh, to a secret outside).
PathVerdict test_verdict(const std::string& absolute, std::string_view relative, PathForm) {
  std::error_code ec;
  const std::string resolved = fs::weakly_canonical(absolute, ec).string();
  bool hidden = relative.starts_with(".env") || relative == "vault" || resolved.find("/.ssh") != std::string::npos ||
                resolved.ends_with("outside-secret.txt");
  return hidden ? PathVerdict{PathClass::hidden, "secrets"} : PathVerdict{};
}

/// A sandbox over a fresh workspace whose re-survey hides every `.env*` file, the `vault/` folder,
/// and whatever leads into a `.ssh` folder or to `outside-secret.txt`; agent-run's HOME (with its
/// .ssh/id_rsa) is masked, and a folder beside the workspace holds a secret and a plain file.
/// `before` runs before the sandbox starts (as setup does).
struct LateMaskScene {
  test::TempFolder scratch;
  test::TempFolder workspace{test::visible_scratch()};
  test::TempFolder home{test::visible_scratch()};
  test::TempFolder outside{test::visible_scratch()};
  SurveyRequest survey;
  std::unique_ptr<AttemptSandbox> sandbox;
  Survey started_from;
  ProcessTable table;
  SystemClock clock;

  explicit LateMaskScene(const std::function<void(LateMaskScene&)>& before = {}) {
    home.write(".ssh/id_rsa", "ssh-secret");
    outside.write("outside-secret.txt", "beside-canary");
    outside.write("plain.txt", "outside-plain");
    outside.write("dir/key.txt", "dir-secret");
    if (before) before(*this);
    survey.workspace = workspace.path();
    survey.classify = test_verdict;
    auto started = start();
    BOOST_REQUIRE_MESSAGE(started.has_value(), (started ? std::string() : started.error().message));
    sandbox = std::move(*started);
  }
  /// A sandbox laid out from a fresh survey (the checks' is), masking late paths from then on.
  Expected<std::unique_ptr<AttemptSandbox>> start(const Survey* previous = nullptr) {
    SurveyRequest request = survey;
    request.previous = previous;
    auto first = survey_paths(request);
    BOOST_REQUIRE(first.has_value());
    started_from = *first;
    SandboxRequest layout;
    layout.workspace = workspace.path();
    layout.runner_home = home.path();
    layout.survey = &*first;
    // Beside the workspace, HOME and the folder of files beside it are shown (as `sandbox.read`
    // would show them), so that their secrets need the masks under test.
    layout.shown = {ShownFolder{home.path(), home.path(), false, "sandbox.read"},
                    ShownFolder{outside.path(), outside.path(), false, "sandbox.read"}};
    auto started = AttemptSandbox::start(layout, scratch.path(), test::test_environment());
    if (started) (*started)->mask_late_paths(survey, *first, clock);
    return started;
  }
  ProcessResult run(const std::string& command) { return run_in(*sandbox, command); }
  ProcessResult run_in(const AttemptSandbox& in, const std::string& command) {
    ProcessSpec spec = shell_command(command, workspace.path(), 60s);
    spec.environment = test::test_environment();
    auto result = table.run(in.wrap(spec));
    BOOST_REQUIRE_MESSAGE(result.has_value(), (result ? std::string() : result.error().message));
    return *result;
  }
  /// Links of every shape to the secrets: into HOME's masked .ssh (a file, the folder, through two
  /// links), to a visible secret beside the workspace, to a folder beside it, and links whose target
  /// needs no mask (dangling, the folder holding the workspace, /proc, /tmp). `prefix` names them.
  void make_links(const std::string& prefix) const {
    const fs::path ws = workspace.path();
    fs::create_symlink(home.path() / ".ssh/id_rsa", ws / (prefix + "key.txt"));
    fs::create_symlink(home.path() / ".ssh", ws / (prefix + "sshdir"));
    fs::create_symlink(ws / (prefix + "key.txt"), ws / (prefix + "hop"));
    fs::create_symlink(outside.path() / "outside-secret.txt", ws / (prefix + "outside.txt"));
    fs::create_symlink(outside.path() / "dir", ws / (".env." + prefix + "dir"));
    fs::create_symlink(ws / "nowhere", ws / (".env." + prefix + "dangling"));
    fs::create_symlink(ws.parent_path(), ws / (".env." + prefix + "up"));
    fs::create_symlink("/proc/self/environ", ws / (".env." + prefix + "environ"));
    fs::create_symlink("/tmp", ws / (".env." + prefix + "tmp"));
  }
  /// A command that reads each secret through the links `prefix` names, and directly.
  std::string read_links(const std::string& prefix) const {
    return "cat " + prefix + "key.txt " + prefix + "sshdir/id_rsa " + prefix + "hop " + prefix + "outside.txt .env." +
           prefix + "dir/key.txt " + (outside.path() / "outside-secret.txt").string() + " " +
           (home.path() / ".ssh/id_rsa").string() + " 2>&1; cat " + (outside.path() / "plain.txt").string() +
           "; echo; echo done";
  }
  void check_read_nothing(const ProcessResult& read, const std::string& what) const {
    BOOST_TEST_CONTEXT(what << ": " << read.output) {
      BOOST_TEST(read.exit_code == 0);  // it ran: no mask stopped it
      for (const char* secret : {"ssh-secret", "beside-canary", "dir-secret"})
        BOOST_TEST(read.output.find(secret) == std::string::npos, secret);
      BOOST_TEST(read.output.find("Permission denied") != std::string::npos);
      BOOST_TEST(read.output.find("outside-plain") != std::string::npos);  // only the secret's target is masked
      BOOST_TEST(read.output.find("done") != std::string::npos);
    }
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(late_masks, *boost::unit_test::precondition(test::sandbox_usable))

BOOST_AUTO_TEST_CASE(a_hidden_file_made_inside_is_unreadable_to_the_next_command) {
  LateMaskScene scene;
  ProcessResult made = scene.run("printf late-secret > .env.local && printf plain > plain.txt && cat .env.local");
  BOOST_TEST(made.output == "late-secret", made.output);  // the command that wrote it still reads it
  ProcessResult next = scene.run("cat .env.local; echo; cat plain.txt; echo; ls -l .env.local | cut -c1-10");
  BOOST_TEST(next.output.find("late-secret") == std::string::npos, next.output);
  BOOST_TEST(next.output.find("Permission denied") != std::string::npos, next.output);
  BOOST_TEST(next.output.find("plain") != std::string::npos, next.output);  // the control
  BOOST_TEST(next.output.find("----------") != std::string::npos, next.output);
  // Neither writable (a read-only mount) nor removable by the command, which has no capabilities.
  ProcessResult undo = scene.run("chmod 644 .env.local; umount .env.local; printf x >> .env.local; cat .env.local");
  BOOST_TEST(undo.output.find("late-secret") == std::string::npos, undo.output);
  BOOST_TEST(scene.workspace.read(".env.local") == "late-secret");
}

BOOST_AUTO_TEST_CASE(a_hidden_file_made_outside_and_a_hidden_folder_are_masked_too) {
  LateMaskScene scene;
  scene.workspace.write(".env", "outside-secret");  // a daemon of setup's, after the sandbox started
  scene.workspace.write("vault/key.txt", "folder-secret");
  ProcessResult next = scene.run("cat .env; ls vault; cat vault/key.txt; echo done");
  BOOST_TEST(next.output.find("outside-secret") == std::string::npos, next.output);
  BOOST_TEST(next.output.find("folder-secret") == std::string::npos, next.output);
  BOOST_TEST(next.output.find("done") != std::string::npos, next.output);
}

BOOST_AUTO_TEST_CASE(a_renamed_or_linked_hidden_file_stays_masked_under_its_new_name) {
  LateMaskScene scene;
  scene.workspace.write(".env", "linked-secret");
  fs::create_hard_link(scene.workspace.path() / ".env", scene.workspace.path() / "linked.txt");
  BOOST_TEST(scene.run("cat linked.txt; echo").output.find("linked-secret") == std::string::npos);
  fs::rename(scene.workspace.path() / ".env", scene.workspace.path() / "renamed.txt");
  ProcessResult renamed = scene.run("cat renamed.txt linked.txt; echo");
  BOOST_TEST(renamed.output.find("linked-secret") == std::string::npos, renamed.output);
}

// The links are there before the sandbox starts, as setup (or the agent, for the checks' sandbox)
// leaves them: the sandbox starts, and nothing reads through them.
BOOST_AUTO_TEST_CASE(links_to_hidden_files_made_before_the_start_never_stop_it_and_read_nothing) {
  LateMaskScene scene([](LateMaskScene& before) { before.make_links("s-"); });
  scene.check_read_nothing(scene.run(scene.read_links("s-")), "setup's links");
}

// Made while the sandbox runs, by a command inside (the agent's) and by a process outside (setup's
// daemon): each later command runs, reads nothing, and a fresh sandbox over them (the checks') starts.
BOOST_AUTO_TEST_CASE(links_to_hidden_files_made_during_the_run_are_masked_for_later_commands_and_a_fresh_sandbox) {
  LateMaskScene scene;
  const fs::path ws = scene.workspace.path();
  ProcessResult made = scene.run("ln -s " + (scene.home.path() / ".ssh/id_rsa").string() + " a-key.txt && ln -s " +
                                 (scene.home.path() / ".ssh").string() + " a-sshdir && ln -s a-key.txt a-hop && " +
                                 "ln -s " + (scene.outside.path() / "outside-secret.txt").string() +
                                 " a-outside.txt && ln -s " + (scene.outside.path() / "dir").string() +
                                 " .env.a-dir && echo made");
  BOOST_REQUIRE_MESSAGE(made.output == "made\n", made.output);
  scene.make_links("o-");
  scene.check_read_nothing(scene.run(scene.read_links("a-")), "the agent's links");
  scene.check_read_nothing(scene.run(scene.read_links("o-")), "links made outside");
  std::vector<std::string> late;
  for (const MaskedLater& mask : scene.sandbox->masked_later()) late.push_back(mask.path.string());
  // The visible targets were masked late, once each; what HOME's .ssh already hides needed nothing.
  BOOST_TEST(late == (std::vector<std::string>{(scene.outside.path() / "dir").string(),
                                               (scene.outside.path() / "outside-secret.txt").string()}),
             boost::test_tools::per_element());
  Survey agent_survey = scene.started_from;
  auto checks = scene.start(&agent_survey);
  BOOST_REQUIRE_MESSAGE(checks.has_value(), (checks ? std::string() : checks.error().message));
  scene.check_read_nothing(scene.run_in(**checks, scene.read_links("a-")), "the checks' sandbox");
  scene.check_read_nothing(scene.run_in(**checks, scene.read_links("o-")), "the checks' sandbox, outside links");
  BOOST_TEST(fs::is_symlink(ws / "a-key.txt"));  // nothing was mounted over the links themselves, outside
  BOOST_TEST(scene.outside.read("outside-secret.txt") == "beside-canary");
}

// A path planned as a file that became a link before the command entered: the command does not run,
// rather than have mount follow the link.
BOOST_AUTO_TEST_CASE(a_late_mask_whose_path_became_a_link_stops_the_command) {
  LateMaskScene scene;
  const fs::path ws = scene.workspace.path();
  fs::create_symlink(scene.outside.path() / "plain.txt", ws / "became-a-link");
  LateMasks late;
  late.files = {ws / "became-a-link"};
  ProcessSpec spec = shell_command("echo it-ran", ws, 60s);
  spec.argv = entry_argv(scene.sandbox->holder(), scene.sandbox->layout(), SandboxEntryTools{}, ws, spec.argv, late);
  spec.environment = scene.sandbox->inside_environment(test::test_environment());
  auto result = scene.table.run(spec);
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(result->exit_code == 125);
  BOOST_TEST(result->output.find("cannot mask " + (ws / "became-a-link").string() + ": it became a link") !=
                 std::string::npos,
             result->output);
  BOOST_TEST(result->output.find("it-ran") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
