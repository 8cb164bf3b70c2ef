#include "support/ripgrep_reference.h"

#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <random>
#include <sstream>

namespace agent_run::test {

namespace {

const std::vector<std::string>& folder_names() {
  static const std::vector<std::string> k_names = {"a", "b", "ab", "src", "lib", "x.c.d", ".hid", "[x]", "a-b", "A"};
  return k_names;
}

const std::vector<std::string>& file_names() {
  static const std::vector<std::string> k_names = {"a.c", "b.h", "ab.c", "a", "ba", "main.go", ".env", "x.c",
                                                   "[x].c", "a-b.h", "test_a.py", "c.cc", "A.C", "b"};
  return k_names;
}

/// One segment of a generated glob: a name of the tree, or a glob of one segment.
const std::vector<std::string>& glob_segments() {
  static const std::vector<std::string> k_segments = {
      "a",     "b",      "src",     "lib",    "x.c.d",  ".hid",    "a.c",      "b.h",   "*",    "?",
      "*.c",   "a*",     "*b",      "[ab]*",  "[!a]*",  "[a-c].?", "{a,b}",    "*.{c,h}", "{src,lib}",
      "a?",    "**",     "**.c",    "a**",    "\\[x\\]", "[[]x]*", "*.c*",    "?.c",   "**"};
  return k_segments;
}

}  // namespace

std::vector<std::string> generated_tree_paths(std::uint32_t seed, std::size_t count) {
  std::mt19937 random(seed);
  auto pick = [&](const std::vector<std::string>& from) { return from[random() % from.size()]; };
  std::set<std::string> files, folders;
  std::vector<std::string> paths;
  for (std::size_t tries = 0; paths.size() < count && tries < count * 20; ++tries) {
    std::string path;
    std::vector<std::string> made;
    const std::size_t depth = random() % 4;
    for (std::size_t d = 0; d < depth; ++d) {
      path += pick(folder_names());
      made.push_back(path);
      path += "/";
    }
    path += pick(file_names());
    bool clash = folders.count(path) > 0 || files.count(path) > 0;
    for (const std::string& folder : made) clash = clash || files.count(folder) > 0;
    if (clash) continue;
    folders.insert(made.begin(), made.end());
    files.insert(path);
    paths.push_back(path);
  }
  return paths;
}

std::vector<std::string> generated_globs(std::uint32_t seed, std::size_t count) {
  std::vector<std::string> globs = {"**",       "**/**",      "**/a",      "a/**",          "**/a/**",
                                    "a/**/**/b", "**/**/a.c", "**.c",      "**/*.c",        "src/**/*.c",
                                    "src/**",   "**/src/**",  "*.{c,h}",   "{src,lib}/**",  "[!a]*",
                                    "**/[ab]*.?", "a/**/b/**", "**/**/**", "*",            "x.c.d"};
  std::mt19937 random(seed);
  while (globs.size() < count) {
    const std::size_t segments = 1 + random() % 4;
    std::string glob;
    for (std::size_t s = 0; s < segments; ++s) {
      if (s > 0) glob += "/";
      glob += glob_segments()[random() % glob_segments().size()];
    }
    globs.push_back(glob);
  }
  globs.resize(count);
  return globs;
}

void make_tree(const std::filesystem::path& root, const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    const std::filesystem::path file = root / path;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << "";
    BOOST_REQUIRE_MESSAGE(std::filesystem::is_regular_file(file), "cannot make " << file);
  }
}

std::set<std::string> ripgrep_files(const std::filesystem::path& root, const std::string& glob) {
  // rg exits 1 when it lists nothing; 2 is an error (a glob it refuses).
  CommandResult listed = run_shell(std::string(k_ripgrep) + " --files --hidden --no-ignore -g " + shell_quote(glob) +
                                       " 2>&1; echo \"exit $?\"",
                                   root);
  std::set<std::string> files;
  std::istringstream lines(listed.output);
  std::string line, last;
  while (std::getline(lines, line)) {
    if (line.rfind("exit ", 0) == 0) {
      last = line;
      continue;
    }
    files.insert(line.rfind("./", 0) == 0 ? line.substr(2) : line);
  }
  BOOST_REQUIRE_MESSAGE(last == "exit 0" || last == "exit 1", "rg -g " << glob << ": " << listed.output);
  return files;
}

}  // namespace agent_run::test
