#include "policy/path_pattern.h"
#include "policy/host_pattern.h"
#include "policy/tool_names.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace agent_run;
using agent_run::test::TempFolder;

namespace {

/// True when `pattern` matches `path` named in the virtual workspace /workspace.
bool matches(const std::string& pattern, const std::string& path) {
  Expected<PathPattern> compiled = compile_path_pattern(pattern);
  BOOST_REQUIRE_MESSAGE(compiled.has_value(), pattern);
  std::vector<CanonicalPath> views = canonical_paths({}, path);
  BOOST_REQUIRE_EQUAL(views.size(), 1u);
  return path_pattern_matches(*compiled, views[0]);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(path_patterns)

BOOST_AUTO_TEST_CASE(a_name_without_a_slash_matches_at_any_depth_inside_and_outside) {
  BOOST_TEST(matches(".env", ".env"));
  BOOST_TEST(matches(".env", "config/deploy/.env"));
  BOOST_TEST(matches(".env", "/home/someone/.env"));
  BOOST_TEST(matches(".env", "../../.env"));
  BOOST_TEST(!matches(".env", ".envrc"));
  BOOST_TEST(matches("*.pem", "certs/server.pem"));
  BOOST_TEST(!matches("*.pem", "certs/server.pem.txt"));
  BOOST_TEST(matches(".ssh", "/root/.ssh/id_rsa"));  // a folder's pattern matches what it holds
}

BOOST_AUTO_TEST_CASE(a_pattern_with_a_slash_is_anchored_at_the_workspace_root) {
  BOOST_TEST(matches("src/**", "src/a/b.py"));
  BOOST_TEST(matches("src/**", "src"));
  BOOST_TEST(!matches("src/**", "lib/src/a.py"));
  BOOST_TEST(!matches("src/**", "/src/a.py"));  // outside the workspace
  BOOST_TEST(matches("src/*.py", "src/a.py"));
  BOOST_TEST(!matches("src/*.py", "src/sub/a.py"));
  BOOST_TEST(matches("docs/**/*.md", "docs/a/b/c.md"));
  BOOST_TEST(matches("docs/**/*.md", "docs/c.md"));
  BOOST_TEST(matches("**/secrets/**", "a/secrets/x"));
  BOOST_TEST(matches("**/secrets/**", "/var/secrets/x"));  // ** at the start reaches outside too
  BOOST_TEST(matches("src/", "src/a.py"));
  BOOST_TEST(matches("src/[ab]?.py", "src/bz.py"));
  BOOST_TEST(!matches("src/[!ab]?.py", "src/bz.py"));
  BOOST_TEST(matches("src/\\*.py", "src/*.py"));
  BOOST_TEST(!matches("src/\\*.py", "src/x.py"));
}

BOOST_AUTO_TEST_CASE(segments_are_globs_of_the_one_dialect_the_glob_tool_uses) {
  BOOST_TEST(matches("*.{pem,key}", "certs/server.key"));
  BOOST_TEST(!matches("*.{pem,key}", "certs/server.crt"));
  BOOST_TEST(matches("config/{prod,stage}/**", "config/stage/db.yaml"));
  BOOST_TEST(!matches("config/{prod,stage}/**", "config/dev/db.yaml"));
  for (const char* glob : {"*.py", "[!a]*", "{a,b}c", "x\\*y", "?[0-9]", "*"}) {
    for (const char* name : {"a.py", "bc", "ac", "x*y", "xzy", "a1", "zz"}) {
      BOOST_TEST_CONTEXT(glob << " " << name) {
        BOOST_TEST(matches(glob, name) == GlobPattern::compile(glob)->matches(name));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(double_star_alone_matches_every_path_inside_the_workspace_and_out) {
  for (const char* pattern : {"**", "**/", "**/**", "//**"}) {
    BOOST_TEST_CONTEXT(pattern) {
      BOOST_TEST(matches(pattern, "a.py"));
      BOOST_TEST(matches(pattern, "src/deep/er/a.py"));
      BOOST_TEST(matches(pattern, "/etc/passwd"));
      BOOST_TEST(matches(pattern, "../outside"));
    }
  }
  BOOST_TEST(matches("**", "."));  // the workspace itself
  BOOST_TEST(matches("**", "/"));
}

BOOST_AUTO_TEST_CASE(double_star_leading_trailing_doubled_and_inside_a_name) {
  BOOST_TEST(matches("**/a.py", "a.py"));
  BOOST_TEST(matches("**/a.py", "x/y/a.py"));
  BOOST_TEST(!matches("**/a.py", "x/ya.py"));
  BOOST_TEST(matches("src/**", "src/x/y"));
  BOOST_TEST(matches("src/**/**/a", "src/a"));
  BOOST_TEST(matches("src/**/**/a", "src/x/y/a"));
  BOOST_TEST(matches("**.py", "deep/er/a.py"));  // not a whole segment: `*`, and without a slash at any depth
  BOOST_TEST(!matches("**.py", "deep/er/a.pyc"));
  BOOST_TEST(matches("a**", "x/abc"));
}

BOOST_AUTO_TEST_CASE(a_bad_glob_or_a_group_across_a_slash_is_an_error) {
  BOOST_TEST(compile_path_pattern("config/{prod,stage/x}").error().message ==
             "the pattern has a '/' inside '{...}': alternatives stay within one path segment");
  BOOST_TEST(compile_path_pattern("src/{a,b").error().message ==
             "invalid glob '{a,b': an alternate group '{' is not closed");
  BOOST_TEST(compile_path_pattern("src/[z-a]").error().message == "invalid glob '[z-a]': the range 'z-a' is backwards");
}

BOOST_AUTO_TEST_CASE(double_slash_names_absolute_paths) {
  BOOST_TEST(matches("//etc/**", "/etc/passwd"));
  BOOST_TEST(matches("//etc/shadow", "../../../../../../etc/shadow"));
  BOOST_TEST(matches("//workspace/src/**", "src/x"));
  BOOST_TEST(!matches("//etc/**", "etc/passwd"));
}

BOOST_AUTO_TEST_CASE(paths_are_normalised_before_matching) {
  BOOST_TEST(matches(".env", "src/../.env"));
  BOOST_TEST(matches("src/**", "./src/./a.py"));
  BOOST_TEST(matches("src/**", "/workspace/src/a.py"));
  BOOST_TEST(!matches("src/**", "src/../../workspace-other/src/a.py"));
}

BOOST_AUTO_TEST_CASE(symlinks_give_a_second_view) {
  TempFolder workspace;
  workspace.write(".env", "x");
  std::filesystem::create_symlink(".env", workspace.path() / "innocent.txt");
  std::vector<CanonicalPath> views = canonical_paths(workspace.path(), "innocent.txt");
  BOOST_REQUIRE_EQUAL(views.size(), 2u);
  BOOST_TEST(views[0].relative == "innocent.txt");
  BOOST_TEST(views[1].relative == ".env");
  BOOST_TEST(canonical_paths(workspace.path(), "").empty());
}

BOOST_AUTO_TEST_CASE(mcp_patterns_match_the_parsed_server_and_tool) {
  BOOST_TEST(tool_pattern_matches("mcp__github__get_*", "mcp__github__get_issue"));
  BOOST_TEST(!tool_pattern_matches("mcp__github__get_*", "mcp__github_evil__get_issue"));
  BOOST_TEST(!tool_pattern_matches("mcp__github__get_*", "mcp__github__getx"));
  BOOST_TEST(tool_pattern_matches("mcp__github", "mcp__github__create_issue"));
  BOOST_TEST(!tool_pattern_matches("mcp__github", "mcp__githubx__create_issue"));
  BOOST_TEST(tool_pattern_matches("mcp__*", "mcp__any__thing"));
  BOOST_TEST(!tool_pattern_matches("mcp__*", "mcp___bad__thing"));
  BOOST_TEST(tool_pattern_matches("bash", "bash"));
  BOOST_TEST(!tool_pattern_matches("bash", "bash2"));
}

BOOST_AUTO_TEST_CASE(host_patterns_match_whole_labels) {
  BOOST_TEST(host_pattern_matches("*.example.com", "a.b.example.com"));
  BOOST_TEST(!host_pattern_matches("*.example.com", "example.com"));
  BOOST_TEST(!host_pattern_matches("*.example.com", "badexample.com"));
  BOOST_TEST(host_pattern_matches("*", "anything"));
}

BOOST_AUTO_TEST_SUITE_END()
