// What the sandbox shows of the machine for a program: its installation folder (the folder holding
// node_modules, the prefix above bin/), never /, a top-level folder or HOME whole; through a link,
// at both names; PATH's folders, the folders their links lead to, and the tool roots.
#include "exec/shown_folders.h"

#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using Folders = std::vector<fs::path>;

bool shows(const std::vector<ShownFolder>& folders, const fs::path& source, const fs::path& target) {
  return std::any_of(folders.begin(), folders.end(),
                     [&](const ShownFolder& folder) { return folder.source == source && folder.target == target; });
}

std::string listed(const std::vector<ShownFolder>& folders) {
  std::string text;
  for (const ShownFolder& folder : folders) text += folder.source.string() + " -> " + folder.target.string() + " (" + folder.why + ")\n";
  return text;
}

/// A canonical scratch folder outside /tmp, with an executable `relative` in it.
fs::path program_in(const test::TempFolder& folder, const std::string& relative) {
  fs::path file = folder.write(relative, "#!/bin/sh\necho ran\n");
  fs::permissions(file, fs::perms::owner_all);
  return file;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shown_folders)

BOOST_AUTO_TEST_CASE(a_program_shows_its_installation_folder_and_never_home_or_a_top_level_folder) {
  const fs::path home = "/home/dev";
  BOOST_TEST(install_folders("/usr/bin/python3", home).empty());  // the system's tree is shown anyway
  BOOST_TEST(install_folders("/srv/app/.tools/node_modules/.bin", home) == Folders{"/srv/app/.tools"});
  BOOST_TEST(install_folders("/home/dev/.nvm/versions/node/v20/bin", home) == Folders{"/home/dev/.nvm/versions/node/v20"});
  BOOST_TEST(install_folders("/home/dev/.local/bin", home) ==
             (Folders{"/home/dev/.local/bin", "/home/dev/.local/lib"}));  // not .local/share's keyrings
  BOOST_TEST(install_folders("/home/dev/bin", home) == Folders{"/home/dev/bin"});      // not HOME
  BOOST_TEST(install_folders("/work/bin", home) == Folders{"/work/bin"});              // not /work
  BOOST_TEST(install_folders("/home/dev/node_modules/.bin", home) == Folders{"/home/dev/node_modules"});
  BOOST_TEST(install_folders("/home", home).empty());
  BOOST_TEST(install_folders("/home/dev", home).empty());
}

BOOST_AUTO_TEST_CASE(a_lone_program_in_a_folder_too_wide_to_show_is_shown_alone) {
  test::TempFolder scratch(test::visible_scratch());
  const fs::path program = program_in(scratch, "check.sh");
  // With the scratch as HOME, its folder is too wide: only the program itself.
  BOOST_TEST(install_folders(program, scratch.path()) == Folders{program});
  BOOST_TEST(install_folders(program, std::nullopt) == Folders{scratch.path()});
}

BOOST_AUTO_TEST_CASE(a_program_reached_through_a_linked_folder_is_shown_at_both_names) {
  test::TempFolder scratch(test::visible_scratch());
  const fs::path real = fs::canonical(scratch.path()) / "real-tools";
  program_in(scratch, "real-tools/node_modules/.bin/serve");
  const fs::path project = fs::canonical(scratch.path()) / "project";
  fs::create_directories(project);
  fs::create_directory_symlink(real, project / ".tools");  // a clone's .tools linked to another's
  auto folders = folders_for_program(project / ".tools/node_modules/.bin/serve", std::nullopt, "PATH");
  BOOST_TEST(shows(folders, real, real), listed(folders));
  BOOST_TEST(shows(folders, real, project / ".tools"), listed(folders));
  BOOST_TEST(folders_for_program(project / "missing", std::nullopt, "PATH").empty());
}

BOOST_AUTO_TEST_CASE(path_shows_its_folders_the_folders_its_links_lead_to_and_the_tool_roots) {
  test::TempFolder scratch(test::visible_scratch());
  const fs::path root = fs::canonical(scratch.path());
  program_in(scratch, "first/bin/one");
  const fs::path elsewhere = program_in(scratch, "go/bin/gopls");
  fs::create_directories(root / "second/bin");
  fs::create_symlink(elsewhere, root / "second/bin/gopls");  // /usr/local/bin/gopls -> ~/go/bin/gopls
  fs::create_directories(root / "goroot/bin");
  auto folders = program_folders({"PATH=" + (root / "first/bin").string() + ":relative/bin:" +
                                      (root / "second/bin").string() + ":/usr/bin",
                                  "GOROOT=" + (root / "goroot").string(), "HOME=/nowhere"},
                                 fs::path("/nowhere"));
  BOOST_TEST(shows(folders, root / "first", root / "first"), listed(folders));
  BOOST_TEST(shows(folders, root / "second", root / "second"), listed(folders));
  BOOST_TEST(shows(folders, root / "go", root / "go"), listed(folders));  // where second/bin/gopls leads
  BOOST_TEST(shows(folders, root / "goroot", root / "goroot"), listed(folders));
  BOOST_TEST(std::none_of(folders.begin(), folders.end(),
                          [](const ShownFolder& folder) { return folder.target.string().starts_with("/usr"); }),
             listed(folders));
}

BOOST_AUTO_TEST_CASE(a_folder_inside_another_shown_the_same_way_is_dropped) {
  auto kept = without_repeats({{"/srv/a/b", "/srv/a/b", false, "x"}, {"/srv/a", "/srv/a", false, "y"},
                               {"/srv/a/c", "/srv/a/c", true, "z"}, {"/srv/a", "/srv/a", false, "y"}});
  BOOST_TEST(kept.size() == 2u, listed(kept));
  BOOST_TEST(kept[0].target == "/srv/a");
  BOOST_TEST(kept[1].target == "/srv/a/c");  // writable inside a read-only one: mounted after it
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
