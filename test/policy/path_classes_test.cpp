// classify_path on real files: what the sandbox masks, what it mounts read-only, and what the file
// tools and the patch leave alone, as one policy says it.
#include "policy/path_classes.h"
#include "policy/policy_loader.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace agent_run;
using agent_run::test::TempFolder;

namespace {

const char* const k_policy = R"(version: 1
rules:
  - id: secrets
    deny: [read_file, glob, grep, edit_file, write_file, bash]
    paths: [".env", "*.pem", "secrets/**"]
  - id: grep-only
    deny: grep
    paths: ["logs/**"]
  - id: ci-config
    deny: [edit_file, write_file]
    paths: [".github/**", "secrets/ci/**"]
  - id: asked
    ask: read_file
    paths: ["private"]
  - id: cat-only
    deny: bash
    argv_prefix: [cat]
    paths: ["notes.txt"]
)";

struct Workspace {
  TempFolder folder;
  TempFolder outside;
  Policy policy;
  DecisionContext context;

  Workspace() {
    agent_run::test::make_git_repository(folder.path(), {{"src/app.py", "print(1)\n"}});
    folder.write(".env", "KEY=1\n");
    folder.write("certs/server.pem", "pem\n");
    folder.write(".github/workflows/ci.yml", "on: push\n");
    folder.write("notes.txt", "notes\n");
    std::filesystem::create_symlink("../.env", folder.path() / "src/settings");
    outside.write("deep/.env", "outside\n");
    std::filesystem::path file = folder.write("policy.yaml", k_policy);
    Expected<Policy> loaded = load_policy_file(file);
    BOOST_REQUIRE_MESSAGE(loaded.has_value(), (loaded ? std::string() : loaded.error().message));
    policy = std::move(*loaded);
    context.workspace = folder.path();
    context.protected_paths = {folder.path() / "task.yaml"};
  }

  PathVerdict of(const std::string& path) const { return classify_path(policy, path, context); }
};

PathVerdict hidden(const std::string& rule) { return PathVerdict{PathClass::hidden, rule}; }
PathVerdict read_only(const std::string& rule) { return PathVerdict{PathClass::read_only, rule}; }

}  // namespace

BOOST_TEST_DONT_PRINT_LOG_VALUE(agent_run::PathVerdict)

BOOST_FIXTURE_TEST_SUITE(path_classes, Workspace)

BOOST_AUTO_TEST_CASE(a_deny_rule_for_reads_hides_a_path_at_any_depth_and_through_symlinks) {
  BOOST_TEST(of(".env") == hidden("secrets"));
  BOOST_TEST(of("certs/server.pem") == hidden("secrets"));
  BOOST_TEST(of("src/settings") == hidden("secrets"));  // a symlink to .env
  BOOST_TEST(of((folder.path() / ".env").string()) == hidden("secrets"));
  BOOST_TEST(of((outside.path() / "deep/.env").string()) == hidden("secrets"));  // a pattern without a slash
  BOOST_TEST(of("logs/app.log") == hidden("grep-only"));                         // one reading tool is enough
  BOOST_TEST(of("private") == hidden("asked"));                                  // ask denies, so it hides
}

BOOST_AUTO_TEST_CASE(a_deny_rule_for_edits_only_and_protected_paths_are_read_only) {
  BOOST_TEST(of(".github/workflows/ci.yml") == read_only("ci-config"));
  BOOST_TEST(of(".github") == read_only("ci-config"));
  BOOST_TEST(of(".git/config") == read_only("protected path"));
  BOOST_TEST(of("src/.git") == read_only("protected path"));
  BOOST_TEST(of("policy.yaml") == read_only("protected path"));
  BOOST_TEST(of("task.yaml") == read_only("protected path"));
}

BOOST_AUTO_TEST_CASE(hidden_wins_over_read_only) {
  BOOST_TEST(of("secrets/ci/token") == hidden("secrets"));
  BOOST_TEST(of(".git/.env") == hidden("secrets"));
}

BOOST_AUTO_TEST_CASE(rules_narrowed_to_a_program_hide_nothing_and_other_paths_are_plain) {
  BOOST_TEST(of("notes.txt") == PathVerdict{});  // only `cat notes.txt` is denied, not the file
  BOOST_TEST(of("src/app.py") == PathVerdict{});
  BOOST_TEST(of(".") == PathVerdict{});
  BOOST_TEST(of(".envrc.sample") == PathVerdict{});
}

BOOST_AUTO_TEST_CASE(a_path_that_cannot_be_checked_is_hidden) {
  BOOST_TEST((of(std::string(5000, 'a')).kind == PathClass::hidden));
  BOOST_TEST((of("").kind == PathClass::hidden));
}

BOOST_AUTO_TEST_SUITE_END()
