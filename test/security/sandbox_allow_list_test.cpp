// Issue 27 case 5: the sandbox hid a list of known-bad paths and showed the rest of the machine, so
// a token in agent-run's HOME that is on no list (~/.gitconfig's url.insteadOf, huggingface's token,
// ~/.gem/credentials, pip's config) and the CI runner's folders ($RUNNER_TEMP, where actions/checkout
// keeps its token) were readable at their own paths. The sandbox now shows the system's tree, the
// workspace, the folders of the task's programs and what `sandbox: {read: [...]}` names; nothing
// else of the machine is there. Judged by effect: each canary is readable outside the sandbox (the
// control run, sandbox off) and appears in nothing the sandboxed agent saw.
#include "security/scripted_run_fixture.h"

#include "base/files.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// A secret that no deny list names, where it lives and its canary.
struct Planted {
  fs::path file;
  std::string canary;
};

/// Secrets in the scene's HOME and in a CI runner's temporary folder, a folder of data the task
/// shows with `sandbox.read`, and a tool folder on PATH outside every system folder.
struct AllowListScene {
  test::SecurityFixture scene;
  std::vector<Planted> secrets;
  fs::path shared;       // named by sandbox.read: readable inside
  fs::path tool_folder;  // on PATH: its program runs inside
  std::string shared_text = "shared-data-" + test::canary("SHARED").substr(7);

  AllowListScene() {
    const fs::path home = scene.home();
    const fs::path runner_temp = scene.root() / "runner-temp";
    plant(home / ".gitconfig", "[url \"https://x-access-token:" + test::canary("GITCONFIG") +
                                   "@github.com/\"]\n\tinsteadOf = https://github.com/\n");
    plant(home / ".cache/huggingface/token", test::canary("HUGGINGFACE"));
    plant(home / ".gem/credentials", "---\n:rubygems_api_key: " + test::canary("GEM") + "\n");
    plant(home / ".config/pip/pip.conf",
          "[global]\nindex-url = https://user:" + test::canary("PIP") + "@pypi.example/simple\n");
    plant(runner_temp / "git-credentials-1234.config",
          "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic " + test::canary("RUNNERTEMP") + "\n");
    scene.add_environment("RUNNER_TEMP=" + runner_temp.string());
    shared = scene.root() / "shared-data";
    BOOST_REQUIRE(write_file_atomically(shared / "data.txt", shared_text + "\n").has_value());
    tool_folder = scene.root() / "tools" / "bin";
    BOOST_REQUIRE(write_file_atomically(tool_folder / "say-tool", "#!/bin/sh\necho tool-ran\n").has_value());
    fs::permissions(tool_folder / "say-tool", fs::perms::owner_all);
    std::string path = "PATH=" + tool_folder.string();
    for (const std::string& entry : scene.environment()) {
      if (entry.starts_with("PATH=")) path += ":" + entry.substr(5);
    }
    scene.add_environment(path);
  }

  void plant(const fs::path& file, const std::string& text) {
    BOOST_REQUIRE(write_file_atomically(file, text).has_value());
    std::size_t at = text.find("CANARY-");
    secrets.push_back({file, text.substr(at, text.find_first_of("@\n\"", at) - at)});
  }

  /// An in-place task under an open policy whose agent reads each secret at its path, lists the
  /// machine's user folders, reads the shown data and runs the tool on PATH.
  std::string task(const std::string& sandbox) {
    const fs::path policy = scene.root() / "open-policy.yaml";
    BOOST_REQUIRE(write_file_atomically(policy, "version: 1\nunmatched: allow\nrules: []\n").has_value());
    std::string reads;
    for (const Planted& secret : secrets) reads += (reads.empty() ? "cat '" : " '") + secret.file.string() + "'";
    std::string script = "script:\n";
    for (const std::string& command :
         {reads, "ls -a " + scene.home().string() + " /home /srv /mnt /media /var/lib",
          "cat '" + (shared / "data.txt").string() + "'",
          std::string("say-tool")}) {
      script += "  - call: " + test::tool_call("bash", Json::object().set("command", command)).dump() + "\n";
    }
    return "prompt: p\nmodel: script\npolicy: " + policy.string() + "\n" + scene.workspace_key("in-place") +
           "tools: [bash]\n" + sandbox + script + "  - say: Done.\n";
  }
};

std::string shown_key(const AllowListScene& scene) {
  return "sandbox:\n  read: [" + scene.shared.string() + "]\n";
}

BOOST_AUTO_TEST_SUITE(sandbox_allow_list)

/// The folders the report says were shown, one "PATH <- WHY" a line.
std::string shown_of(const test::TaskRun& run) {
  const Json* sandbox = run.attempt.find("sandbox");
  const Json* shown = sandbox ? sandbox->find("shown") : nullptr;
  std::string listed;
  if (shown && shown->is_array()) {
    for (const Json& folder : shown->as_array()) listed += folder.get_string("path") + " <- " + folder.get_string("why") + "\n";
  }
  return listed;
}

/// Whether `folder` is `path` or one of the folders above it.
bool is_ancestor(const fs::path& folder, const fs::path& path) {
  return std::mismatch(folder.begin(), folder.end(), path.begin(), path.end()).first == folder.end();
}

BOOST_AUTO_TEST_CASE(home_and_ci_runner_secrets_on_no_list_are_not_there_inside_the_sandbox) {
  if (!test::sandbox_tests_can_run()) return;
  AllowListScene scene;
  test::TaskRun run = scene.scene.run_task("allow-list", scene.task(""), {});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  const Json* sandboxed = run.attempt.find("sandboxed");
  BOOST_REQUIRE((sandboxed && sandboxed->is_bool() && sandboxed->as_bool()));
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_REQUIRE_EQUAL(answers.size(), 4u);
  for (const test::Answer& answer : answers) {
    for (const Planted& secret : scene.secrets) {
      BOOST_TEST(answer.content.find(secret.canary) == std::string::npos,
                 secret.file << " was read inside the sandbox:\n" << answer.content);
    }
  }
  for (const Planted& secret : scene.secrets) {
    BOOST_TEST(answers[0].content.find(secret.file.string() + ": No such file or directory") != std::string::npos,
               answers[0].content);
  }
  // (/root is there on a machine whose PATH has tool folders in it, such as ~/.cargo/bin: only those.)
  for (const std::string& folder : {scene.scene.home().string(), std::string("/home"), std::string("/srv"),
                                    std::string("/mnt"), std::string("/media"), std::string("/var/lib")}) {
    // A folder above the scene (a checkout under /srv or /home, as in ci/fresh-debian-check.sh's
    // tree) is there: the workspace's own ancestors are shown, down to the workspace. Not judged here.
    if (is_ancestor(folder, scene.scene.root())) continue;
    BOOST_TEST(answers[1].content.find("cannot access '" + folder + "': No such file or directory") != std::string::npos,
               answers[1].content);
  }
  BOOST_TEST(answers[2].content.find("No such file or directory") != std::string::npos, answers[2].content);
  // The positive control: a program on PATH outside the system's folders runs, and the report says why.
  BOOST_TEST(answers[3].content.find("tool-ran") != std::string::npos, answers[3].content);
  const std::string listed = shown_of(run);
  BOOST_TEST(listed.find(scene.tool_folder.parent_path().string() + " <- PATH") != std::string::npos, listed);
  BOOST_TEST(listed.find(scene.scene.home().string() + " <-") == std::string::npos, listed);
}

BOOST_AUTO_TEST_CASE(a_folder_the_task_names_in_sandbox_read_is_shown_read_only) {
  if (!test::sandbox_tests_can_run()) return;
  AllowListScene scene;
  test::TaskRun run = scene.scene.run_task("allow-list-read", scene.task(shown_key(scene)), {});
  BOOST_TEST_INFO(run.output);
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_REQUIRE_EQUAL(answers.size(), 4u);
  BOOST_TEST(answers[2].content.find(scene.shared_text) != std::string::npos, answers[2].content);
  const std::string listed = shown_of(run);
  BOOST_TEST(listed.find(scene.shared.string() + " <- sandbox.read") != std::string::npos, listed);
  for (const Planted& secret : scene.secrets) {
    BOOST_TEST(answers[0].content.find(secret.canary) == std::string::npos, answers[0].content);
  }
}

BOOST_AUTO_TEST_CASE(without_the_sandbox_the_same_secrets_are_readable_so_the_scene_is_real) {
  AllowListScene scene;
  test::TaskRun run = scene.scene.run_task("allow-list-off", scene.task(""), {"--sandbox", "off"});
  BOOST_TEST_INFO(run.output);
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_REQUIRE_EQUAL(answers.size(), 4u);
  for (const Planted& secret : scene.secrets) {
    BOOST_TEST(answers[0].content.find(secret.canary) != std::string::npos, secret.file << ":\n" << answers[0].content);
  }
  BOOST_TEST(answers[1].content.find(".gitconfig") != std::string::npos, answers[1].content);
}

/// A tool folder on PATH under another user's home (a CI image's /root/.cargo while agent-run's HOME
/// is the runner's), on PATH at its own name and at the name a link to that home gives it.
struct OtherHomeScene {
  test::SecurityFixture scene;
  fs::path other_home = scene.root() / "other-home";
  fs::path linked_home = scene.root() / "linked-home";
  std::string canary = test::canary("CARGOTOKEN");

  OtherHomeScene() {
    const fs::path tool = other_home / ".cargo/bin/cargo-tool";
    BOOST_REQUIRE(write_file_atomically(tool, "#!/bin/sh\necho cargo-tool-ran\n").has_value());
    fs::permissions(tool, fs::perms::owner_all);
    BOOST_REQUIRE(write_file_atomically(other_home / ".cargo/credentials.toml",
                                        "[registry]\ntoken = \"" + canary + "\"\n")
                      .has_value());
    fs::create_symlink(other_home, linked_home);
    std::string path = "PATH=" + (other_home / ".cargo/bin").string() + ":" + (linked_home / ".cargo/bin").string();
    for (const std::string& entry : scene.environment()) {
      if (entry.starts_with("PATH=")) path += ":" + entry.substr(5);
    }
    scene.add_environment(path);
  }

  /// Reads the credentials at both names, runs the tool and lists the folder.
  std::string task() {
    const fs::path policy = scene.root() / "open-policy.yaml";
    BOOST_REQUIRE(write_file_atomically(policy, "version: 1\nunmatched: allow\nrules: []\n").has_value());
    std::string script = "script:\n";
    for (const std::string& command : {"cat '" + (other_home / ".cargo/credentials.toml").string() + "'",
                                       "cat '" + (linked_home / ".cargo/credentials.toml").string() + "'",
                                       std::string("cargo-tool; ls '") + (linked_home / ".cargo").string() + "'"}) {
      script += "  - call: " + test::tool_call("bash", Json::object().set("command", command)).dump() + "\n";
    }
    return "prompt: p\nmodel: script\npolicy: " + policy.string() + "\n" + scene.workspace_key("in-place") +
           "tools: [bash]\n" + script + "  - say: Done.\n";
  }
};

BOOST_AUTO_TEST_CASE(a_tool_folder_under_another_home_is_shown_without_that_home_s_credentials_at_both_its_names) {
  OtherHomeScene scene;
  // The control: without the sandbox both names read the token.
  test::TaskRun off = scene.scene.run_task("other-home-off", scene.task(), {"--sandbox", "off"});
  std::vector<test::Answer> read = test::answers_of(off);
  BOOST_REQUIRE_EQUAL(read.size(), 3u);
  BOOST_TEST(read[0].content.find(scene.canary) != std::string::npos, read[0].content);
  BOOST_TEST(read[1].content.find(scene.canary) != std::string::npos, read[1].content);
  if (!test::sandbox_tests_can_run()) return;
  test::TaskRun run = scene.scene.run_task("other-home", scene.task(), {});
  BOOST_TEST_INFO(run.output);
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_REQUIRE_EQUAL(answers.size(), 3u);
  for (const test::Answer& answer : answers) {
    BOOST_TEST(answer.content.find(scene.canary) == std::string::npos, "read inside the sandbox:\n" << answer.content);
  }
  BOOST_TEST(answers[0].content.find("Permission denied") != std::string::npos, answers[0].content);
  BOOST_TEST(answers[1].content.find("Permission denied") != std::string::npos, answers[1].content);
  // The folder is there (not merely absent): its program runs and its listing shows at the link's name.
  BOOST_TEST(answers[2].content.find("cargo-tool-ran") != std::string::npos, answers[2].content);
  BOOST_TEST(answers[2].content.find("credentials.toml") != std::string::npos, answers[2].content);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace agent_run
