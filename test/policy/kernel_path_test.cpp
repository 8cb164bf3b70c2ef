// Paths resolved as the kernel resolves them for a command (symlinks before `..`), and the names
// under /proc and /dev that mean the opening process, on real files and symlinks.
#include "policy/kernel_path.h"
#include "policy/path_pattern.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace agent_run;
using agent_run::test::TempFolder;

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(kernel_path)

BOOST_AUTO_TEST_CASE(a_symlink_is_followed_before_dot_dot_is_applied) {
  TempFolder root;
  root.write("ws/src/app.py", "x\n");
  root.write("outside/deep/file", "x\n");
  root.write("outside/policy.yaml", "x\n");
  fs::create_symlink(root.path() / "outside/deep", root.path() / "ws/src/lnk");
  const fs::path ws = fs::canonical(root.path() / "ws");
  const fs::path outside = fs::canonical(root.path() / "outside");
  BOOST_TEST(kernel_resolve(ws, "src/lnk/../policy.yaml").resolved == outside / "policy.yaml");
  BOOST_TEST(kernel_resolve(ws, "src/lnk/file").resolved == outside / "deep/file");
  BOOST_TEST(kernel_resolve(ws, "src/../src/app.py").resolved == ws / "src/app.py");
  BOOST_TEST(kernel_resolve(ws, "src/missing/../x").resolved == ws / "src/x");  // the rest is lexical
  BOOST_TEST(kernel_resolve(ws, "/").resolved == fs::path("/"));
  // The lexical view says the workspace's policy.yaml, the kernel view the outside one: both are checked.
  std::vector<CanonicalPath> views = canonical_paths(ws, "src/lnk/../policy.yaml");
  BOOST_REQUIRE_EQUAL(views.size(), 2u);
  BOOST_TEST(views[0].relative == "src/policy.yaml");
  BOOST_TEST(views[1].absolute == (outside / "policy.yaml").generic_string());
}

BOOST_AUTO_TEST_CASE(relative_and_absolute_link_texts_and_loops) {
  TempFolder root;
  root.write("a/b/target", "x\n");
  fs::create_symlink("b", root.path() / "a/rel");
  fs::create_symlink(root.path() / "a/b", root.path() / "a/abs");
  fs::create_symlink("loop", root.path() / "a/loop");
  const fs::path a = fs::canonical(root.path() / "a");
  BOOST_TEST(kernel_resolve(a, "rel/target").resolved == a / "b/target");
  BOOST_TEST(kernel_resolve(a, "abs/../b/target").resolved == a / "b/target");
  BOOST_TEST(kernel_resolve(a, "loop/x").resolved == a / "loop/x");  // ELOOP: the text as written
}

BOOST_AUTO_TEST_CASE(names_that_mean_the_opening_process_are_magic) {
  TempFolder root;
  const fs::path ws = fs::canonical(root.path());
  BOOST_TEST(kernel_resolve(ws, "/proc/self/cwd/../policy.yaml").magic == "/proc/self");
  BOOST_TEST(kernel_resolve(ws, "/proc/thread-self/environ").magic == "/proc/thread-self");
  BOOST_TEST(kernel_resolve(ws, "/proc/4242/environ").magic == "/proc/4242");
  BOOST_TEST(kernel_resolve(ws, "/proc/net/tcp").magic == "/proc/self");  // /proc/net -> self/net
  BOOST_TEST(kernel_resolve(ws, "/dev/fd/3").magic == "/dev/fd");
  BOOST_TEST(kernel_resolve(ws, "/dev/stderr").magic == "/dev/stderr");
  BOOST_TEST(kernel_resolve(ws, "/nonexistent/../proc/self/environ").magic == "/proc/self");
  BOOST_TEST(kernel_resolve(ws, "/proc/cpuinfo").magic.empty());
  BOOST_TEST(kernel_resolve(ws, "/dev/null").magic.empty());
  fs::create_symlink("/proc/self", root.path() / "me");
  BOOST_TEST(kernel_resolve(ws, "me/environ").magic == "/proc/self");
  BOOST_TEST(canonical_paths(ws, "me/environ").front().magic == "/proc/self");
  BOOST_TEST(canonical_paths({}, "/proc/1/environ").front().magic == "/proc/1");  // a virtual workspace: lexical
}

BOOST_AUTO_TEST_SUITE_END()
