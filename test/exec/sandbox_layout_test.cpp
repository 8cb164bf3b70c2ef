#include "exec/sandbox_layout.h"
#include "base/text.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

SandboxLayout small_layout() {
  SandboxLayout layout;
  layout.workspace = "/srv/ws";
  layout.private_tmp = "/srv/scratch/sandbox-1/tmp";
  layout.mask_file = "/srv/scratch/sandbox-1/masked";
  layout.token = "/run/agent-run-sandbox-1";
  layout.emptied = {"/srv/source"};
  layout.read_only_binds = {{"/srv/source/.git", "/srv/source/.git"},
                            {"/srv/scratch/sandbox-1/git-config", "/srv/source/.git/config"}};
  layout.read_only = {"/srv/ws/.git", "/srv/ws/.github"};
  layout.masked_folders = {"/srv/ws/secrets"};
  layout.masked_files = {"/srv/ws/.env"};
  return layout;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sandbox_layout)

BOOST_AUTO_TEST_CASE(the_holder_mounts_in_order_and_later_mounts_win) {
  std::string line = join(holder_argv(small_layout(), "/usr/bin/bwrap", "/usr/bin/sleep"), " ");
  BOOST_TEST(line.starts_with(
      "/usr/bin/bwrap --die-with-parent --new-session --unshare-user --uid 0 --gid 0 --unshare-ipc --unshare-uts "
      "--unshare-pid --unshare-net --cap-drop ALL --tmpfs / --ro-bind /usr /usr --ro-bind /etc /etc "));
  // Only the system's tree is there of the machine, and the root stays empty and read-only.
  BOOST_TEST(line.find("--ro-bind / /") == std::string::npos);
  BOOST_TEST(line.find(" --dev /dev --proc /proc --tmpfs /run ") != std::string::npos);
  BOOST_TEST(line.find("--ro-bind /srv/scratch/sandbox-1/masked /srv/ws/.env --remount-ro / --chdir") !=
             std::string::npos, line);
  BOOST_TEST(
      line.find("--ro-bind /srv/scratch/sandbox-1/masked /run/agent-run-sandbox-1 "
                "--bind /srv/scratch/sandbox-1/tmp /tmp --tmpfs /var/tmp --tmpfs /srv/source "
                "--bind /srv/ws /srv/ws --ro-bind /srv/ws/.git /srv/ws/.git --ro-bind /srv/ws/.github /srv/ws/.github "
                "--ro-bind /srv/source/.git /srv/source/.git "
                "--ro-bind /srv/scratch/sandbox-1/git-config /srv/source/.git/config "
                "--perms 000 --tmpfs /srv/ws/secrets --remount-ro /srv/ws/secrets "
                "--ro-bind /srv/scratch/sandbox-1/masked /srv/ws/.env --remount-ro / "
                "--chdir /srv/ws --info-fd 1 -- /bin/sh -c echo agent-run-sandbox-ready >&2 && exec \"$0\" "
                "infinity /usr/bin/sleep") != std::string::npos,
      line);
  // The workspace comes after what it lies in (the source, /tmp) and before what lies in it (.git, masks).
  BOOST_TEST(line.find("--bind /srv/ws /srv/ws") > line.find("--tmpfs /srv/source"));
  BOOST_TEST(line.find("--bind /srv/ws /srv/ws") < line.find("--ro-bind /srv/ws/.git"));
  BOOST_TEST(line.find("--ro-bind /srv/ws/.github") < line.find("/srv/ws/.env"));
}

BOOST_AUTO_TEST_CASE(network_on_write_none_and_write_anywhere_change_their_words) {
  SandboxLayout layout = small_layout();
  layout.spec.network = SandboxNetwork::on;
  layout.spec.write = SandboxWrite::none;
  std::string none = join(holder_argv(layout, "bwrap", "sleep"), " ");
  BOOST_TEST(none.find("--unshare-net") == std::string::npos);
  BOOST_TEST(none.find("--ro-bind /srv/ws /srv/ws") != std::string::npos);
  layout.spec.write = SandboxWrite::anywhere;
  std::string anywhere = join(holder_argv(layout, "bwrap", "sleep"), " ");
  BOOST_TEST(anywhere.find("--bind / / ") != std::string::npos);
  BOOST_TEST(anywhere.find("--ro-bind / /") == std::string::npos);
  BOOST_TEST(anywhere.find("--ro-bind /srv/ws/.git /srv/ws/.git") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_command_enters_with_a_pid_namespace_of_its_own_and_no_capability) {
  SandboxLayout layout = small_layout();
  std::vector<std::string> argv =
      entry_argv(4242, layout, SandboxEntryTools{}, "/srv/ws/sub", {"/bin/bash", "-c", "make"});
  BOOST_TEST(join(argv, " ") ==
             "/usr/bin/nsenter --target 4242 --user --mount --net --ipc --uts --preserve-credentials --root --wd -- "
             "/usr/bin/unshare --pid --fork --mount-proc --kill-child -- /usr/bin/setpriv --no-new-privs "
             "--inh-caps=-all --ambient-caps=-all --bounding-set=-all -- /bin/sh -c [ -e \"$1\" ] || { echo "
             "\"agent-run: not inside the attempt's sandbox; nothing ran\" >&2; exit 125; }; cd -- \"$0\" || exit 125; "
             "shift; \"$@\" /srv/ws/sub /run/agent-run-sandbox-1 /bin/bash -c make");
  layout.spec.network = SandboxNetwork::on;  // the machine's network namespace cannot be re-entered
  BOOST_TEST(join(entry_argv(4242, layout, SandboxEntryTools{}, "/srv/ws", {"true"}), " ").find("--net") ==
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(late_masks_are_mounted_between_the_new_namespaces_and_the_loss_of_capabilities) {
  SandboxLayout layout = small_layout();
  LateMasks late;
  late.files = {"/srv/ws/.env"};
  late.folders = {"/srv/ws/vault"};
  std::string argv = join(entry_argv(4242, layout, SandboxEntryTools{}, "/srv/ws", {"true"}, late), " ");
  std::size_t unshare = argv.find("--mount-proc --kill-child -- ");
  std::size_t masks =
      argv.find("agent-run-mask /run/agent-run-sandbox-1 /usr/bin/mount f:/srv/ws/.env d:/srv/ws/vault -- ");
  std::size_t setpriv = argv.find("/usr/bin/setpriv --no-new-privs");
  BOOST_TEST(unshare < masks);
  BOOST_TEST(masks < setpriv, argv);
  BOOST_TEST(setpriv != std::string::npos);
  // Without late masks the entry is as it was: no mask step.
  BOOST_TEST(join(entry_argv(4242, layout, SandboxEntryTools{}, "/srv/ws", {"true"}), " ").find("agent-run-mask") ==
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_layout_mounts_only_over_paths_that_exist_and_skips_what_is_private_anyway) {
  test::TempFolder workspace(test::visible_scratch());
  test::TempFolder attempt;
  test::TempFolder home(test::visible_scratch());
  workspace.write(".env", "x");
  workspace.write(".git/config", "[core]\n");
  home.write(".ssh/id_rsa", "key");
  home.write(".netrc", "machine x");
  Survey survey;
  survey.hidden.push_back(SurveyedPath{".env", workspace.path() / ".env", false, {}, "secrets"});
  survey.hidden.push_back(SurveyedPath{"gone.pem", workspace.path() / "gone.pem", false, {}, "secrets"});
  survey.hidden.push_back(SurveyedPath{"/tmp/x.pem", "/tmp/agent-run-private-anyway.pem", false, {}, "secrets"});
  SandboxRequest request;
  request.workspace = workspace.path();
  request.attempt_folder = attempt.path();
  request.runner_home = home.path();
  request.survey = &survey;
  request.protected_paths = {workspace.path() / "policy.yaml", "/etc/agent-run-missing-policy.yaml"};
  request.git_config = workspace.path() / ".git" / "config";
  // HOME is not there inside: nothing of it needs a mask.
  auto hidden_home = make_sandbox_layout(request);
  BOOST_REQUIRE(hidden_home.has_value());
  BOOST_TEST(hidden_home->masked_files == std::vector<fs::path>{workspace.path() / ".env"}, boost::test_tools::per_element());
  BOOST_TEST(hidden_home->masked_folders.empty());
  // A shown folder that holds HOME's credential folders gets them masked.
  request.shown = {ShownFolder{home.path(), home.path(), false, "sandbox.read"}};
  auto layout = make_sandbox_layout(request);
  BOOST_REQUIRE(layout.has_value());
  BOOST_TEST(layout->masked_files == (std::vector<fs::path>{workspace.path() / ".env", home.path() / ".netrc"}),
             boost::test_tools::per_element());
  BOOST_TEST(layout->masked_folders == std::vector<fs::path>{home.path() / ".ssh"}, boost::test_tools::per_element());
  BOOST_TEST(layout->read_only == std::vector<fs::path>{workspace.path() / ".git"}, boost::test_tools::per_element());
  BOOST_REQUIRE(layout->read_only_binds.size() == 1u);
  BOOST_TEST(layout->read_only_binds[0].second == workspace.path() / ".git" / "config");
  BOOST_TEST(fs::exists(attempt.path() / "git-config"));
}

// A mask goes where a link leads (links to links too), never through a link; none where a mask or the
// sandbox already hides the target, where nothing is, or over what holds the workspace.
BOOST_AUTO_TEST_CASE(masks_are_planned_at_what_links_lead_to_and_only_where_one_is_needed) {
  test::TempFolder workspace(test::visible_scratch());
  test::TempFolder home(test::visible_scratch());
  test::TempFolder outside(test::visible_scratch());
  home.write(".ssh/id_rsa", "key");
  outside.write("visible.txt", "v");
  outside.write("dir/x", "x");
  const fs::path ws = workspace.path();
  fs::create_symlink(home.path() / ".ssh/id_rsa", ws / "key.txt");  // into a masked folder
  fs::create_symlink(home.path() / ".ssh", ws / "sshdir");          // the masked folder itself
  fs::create_symlink(outside.path() / "visible.txt", ws / "hop1");  // a visible file, through two links
  fs::create_symlink(ws / "hop1", ws / "hop2");
  fs::create_symlink(outside.path() / "dir", ws / "outdir");  // a visible folder
  fs::create_symlink(ws / "nothing", ws / "dangling");
  fs::create_symlink(ws.parent_path(), ws / "up");  // holds the workspace
  fs::create_symlink(ws, ws / "self");
  fs::create_symlink("/proc/self/environ", ws / "environ");  // the sandbox has a /proc of its own
  fs::create_symlink("/tmp", ws / "tmp");                    // and a /tmp of its own
  SandboxLayout layout;
  layout.workspace = ws;
  layout.shown = {ShownFolder{outside.path(), outside.path(), false, "sandbox.read"},
                  ShownFolder{home.path(), home.path(), false, "sandbox.read"}};
  layout.masked_folders = {home.path() / ".ssh"};  // as agent-run's HOME masks it
  std::vector<MaskCandidate> candidates;
  for (const char* name : {"key.txt", "sshdir", "hop2", "hop1", "outdir", "dangling", "up", "self", "environ", "tmp"})
    candidates.push_back({ws / name, name});
  std::vector<PlannedMask> planned = plan_masks(candidates, layout);
  std::vector<std::string> shown;
  for (const PlannedMask& mask : planned)
    shown.push_back((mask.folder ? "d:" : "f:") + mask.path.string() + " (" + mask.why + ")");
  BOOST_TEST(shown ==
                 (std::vector<std::string>{"d:" + (outside.path() / "dir").string() + " (outdir)",
                                           "f:" + (outside.path() / "visible.txt").string() + " (hop2)"}),
             boost::test_tools::per_element());
  // A file inside a folder planned in the same round is covered by it; the outer folder comes first.
  std::vector<PlannedMask> nested =
      plan_masks({{outside.path() / "dir/x", "file"}, {ws / "outdir", "inner"}, {outside.path(), "outer"}},
                 SandboxLayout{.workspace = ws, .shown = layout.shown});
  BOOST_REQUIRE_EQUAL(nested.size(), 1u);
  BOOST_TEST(nested[0].path == outside.path());
}

// A tool folder on PATH under another user's home (/root/.cargo while agent-run's HOME is elsewhere)
// holds that home's credentials; a folder reached through a link is shown at both names.
BOOST_AUTO_TEST_CASE(a_shown_folder_under_another_home_has_its_credentials_masked_at_every_name_it_is_shown_at) {
  test::TempFolder workspace(test::visible_scratch());
  test::TempFolder attempt;
  test::TempFolder other_home(test::visible_scratch());
  test::TempFolder links(test::visible_scratch());
  other_home.write(".cargo/bin/cargo-tool", "#!/bin/sh\n");
  other_home.write(".cargo/credentials.toml", "[registry]\ntoken = \"x\"\n");
  other_home.write(".cargo/config.toml", "[build]\n");
  other_home.write(".docker/config.json", "{}");  // not in the shown folder: nothing to mask there
  const fs::path cargo = fs::canonical(other_home.path() / ".cargo");
  fs::create_symlink(other_home.path(), links.path() / "home");
  SandboxRequest request;
  request.workspace = workspace.path();
  request.attempt_folder = attempt.path();
  request.shown = {ShownFolder{cargo, cargo, false, "PATH"},
                   ShownFolder{cargo, links.path() / "home/.cargo", false, "PATH"}};
  auto layout = make_sandbox_layout(request);
  BOOST_REQUIRE(layout.has_value());
  BOOST_TEST(layout->masked_files == (std::vector<fs::path>{cargo / "credentials.toml",
                                                            links.path() / "home/.cargo/credentials.toml"}),
             boost::test_tools::per_element());
  BOOST_TEST(layout->masked_folders.empty());
  // A mask planned later (a hidden file that appears in the folder) goes to both names as well.
  other_home.write(".cargo/late.pem", "key");
  std::vector<PlannedMask> late = plan_masks({{cargo / "late.pem", "secrets"}}, *layout);
  BOOST_REQUIRE_EQUAL(late.size(), 2u);
  BOOST_TEST(late[0].path == cargo / "late.pem");
  BOOST_TEST(late[1].path == links.path() / "home/.cargo/late.pem");
}

BOOST_AUTO_TEST_CASE(more_masks_than_the_sandbox_takes_is_an_error_that_says_what_to_do) {
  test::TempFolder workspace(test::visible_scratch());
  test::TempFolder attempt;
  Survey survey;
  for (std::size_t i = 0; i <= k_max_masks; ++i) {
    std::string name = "f" + std::to_string(i) + ".pem";
    workspace.write(name, "x");
    survey.hidden.push_back(SurveyedPath{name, workspace.path() / name, false, {}, "secrets"});
  }
  SandboxRequest request;
  request.workspace = workspace.path();
  request.attempt_folder = attempt.path();
  request.survey = &survey;
  auto layout = make_sandbox_layout(request);
  BOOST_REQUIRE(!layout.has_value());
  BOOST_TEST(layout.error().message ==
             "the policy hides 1001 paths (rule 'secrets', e.g. f1000.pem); the sandbox masks at most 1000: anchor the "
             "pattern (for example 'certs/*.pem' instead of '*.pem') or set 'sandbox: off'");
}

BOOST_AUTO_TEST_CASE(the_sanitized_git_config_keeps_everything_but_what_authenticates) {
  std::string config =
      "[core]\n\trepositoryformatversion = 0\n"
      "[remote \"origin\"]\n\turl = https://x-access-token:ghs_secret@github.com/o/r\n\tfetch = +refs/heads/*\n"
      "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n"
      "[credential]\n\thelper = store\n"
      "[credential \"https://example.com\"]\n\tusername = me\n"
      "[branch \"main\"]\n\tremote = origin\n";
  BOOST_TEST(sanitized_git_config(config) ==
             "[core]\n\trepositoryformatversion = 0\n"
             "[remote \"origin\"]\n\turl = https://github.com/o/r\n\tfetch = +refs/heads/*\n"
             "[http \"https://github.com/\"]\n"
             "[branch \"main\"]\n\tremote = origin\n");
}

BOOST_AUTO_TEST_CASE(the_sanitized_git_config_drops_every_include_and_a_key_beside_a_header) {
  // An include's file is read wherever it is: actions/checkout's token file under $RUNNER_TEMP.
  std::string config =
      "[core]\n\tbare = false\n"
      "[includeIf \"gitdir:/home/runner/work/r/r/.git\"]\n\tpath = /home/runner/work/_temp/git-credentials.config\n"
      "[include]\n\tpath = ../shared.config\n"
      "[Include] path = /tmp/x.config\n"
      "[http] extraheader = AUTHORIZATION: basic c2VjcmV0\n"
      "[http \"https://example.com/\"]\n\tcookieFile = /home/runner/.cookies\n\tsslVerify = true\n"
      "[url \"https://x-access-token:ghs_secret@github.com/\"]\n\tinsteadOf = https://github.com/\n"
      "[branch \"main\"]\n\tremote = origin\n";
  BOOST_TEST(sanitized_git_config(config) ==
             "[core]\n\tbare = false\n"
             "[http]\n"
             "[http \"https://example.com/\"]\n\tsslVerify = true\n"
             "[url \"https://github.com/\"]\n\tinsteadOf = https://github.com/\n"
             "[branch \"main\"]\n\tremote = origin\n");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
