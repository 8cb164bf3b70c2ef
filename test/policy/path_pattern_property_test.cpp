// Policy path patterns against ripgrep, the dialect's reference: the same generated globs over the
// same generated tree, each answer of path_pattern_matches compared with what `rg --files -g` lists.
#include "policy/path_pattern.h"
#include "support/fixtures.h"
#include "support/ripgrep_reference.h"

#include <boost/test/unit_test.hpp>

#include <iostream>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// What ripgrep says a policy pattern matches among the tree's files: the files `glob` matches, and
/// (a pattern that matches a folder matches everything in it) those in a folder it matches, which
/// is what `glob/**` lists (`**/glob/**` for a glob without a slash, which matches at any depth).
/// One documented extension: a trailing `/**` also matches what comes before it (`secrets/**` names
/// the folder secrets, and so a file of that name, since a path alone does not say which it is).
std::set<std::string> reference_matches(const std::filesystem::path& root, std::string glob) {
  std::set<std::string> files;
  for (;;) {
    for (const std::string& file : ripgrep_files(root, glob)) files.insert(file);
    const std::string within = glob.find('/') == std::string::npos ? "**/" + glob + "/**" : glob + "/**";
    for (const std::string& file : ripgrep_files(root, within)) files.insert(file);
    if (glob.size() <= 3 || glob.compare(glob.size() - 3, 3, "/**") != 0) return files;
    glob.resize(glob.size() - 3);
    if (glob.find('/') == std::string::npos) glob = "/" + glob;  // still anchored at the root, as rg reads a leading '/'
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(path_pattern_properties)

BOOST_AUTO_TEST_CASE(policy_path_patterns_match_what_ripgrep_lists) {
  BOOST_REQUIRE_MESSAGE(std::filesystem::exists(k_ripgrep), "ripgrep is not installed (ci/setup.sh installs it)");
  std::size_t pairs = 0, mismatches = 0;
  for (std::uint32_t seed : {28u, 2801u}) {
    TempFolder folder;
    const std::vector<std::string> paths = generated_tree_paths(seed, 120);
    make_tree(folder.path(), paths);
    for (const std::string& glob : generated_globs(seed, 150)) {
      Expected<PathPattern> pattern = compile_path_pattern(glob);
      BOOST_TEST_REQUIRE(pattern.has_value(), "the policy refuses '" << glob << "', which ripgrep reads: "
                                                                     << (pattern ? std::string() : pattern.error().message));
      const std::set<std::string> expected = reference_matches(folder.path(), glob);
      for (const std::string& path : paths) {
        std::vector<CanonicalPath> views = canonical_paths(folder.path(), path);
        BOOST_TEST_REQUIRE(views.size() == 1u);
        const bool matched = path_pattern_matches(*pattern, views[0]);
        ++pairs;
        if (matched != (expected.count(path) > 0)) {
          ++mismatches;
          BOOST_TEST_MESSAGE("mismatch (seed " << seed << "): pattern '" << glob << "' path '" << path
                                               << "': policy " << matched << ", rg " << !matched);
        }
      }
    }
  }
  BOOST_TEST_MESSAGE("policy path patterns vs rg --files -g: " << pairs << " pattern/path pairs, " << mismatches
                                                              << " mismatches");
  std::cout << "policy path patterns vs rg --files -g: " << pairs << " pattern/path pairs, " << mismatches
            << " mismatches\n";
  BOOST_TEST(pairs >= 30000u);
  BOOST_TEST(mismatches == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
