// Issue 27 case 2: the runner reads files the agent can change (compile_flags.txt, a project's
// node_modules/typescript/package.json) outside the sandbox. A link to a file outside the workspace
// must not be followed (gcc quotes the flags it is given, so a linked secret would reach the edit's
// result), and a FIFO must not hang the run. Each case runs a real per-edit check (gcc as the
// linter, a fake project tsc), as edit_file and write_file do.
#include "base/files.h"
#include "diagnostics/edit_checker.h"
#include "diagnostics/model_text.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <functional>
#include <future>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// How long a check may take on a loaded two-core machine before it counts as hung: it takes
/// seconds, or it waits forever on a FIFO.
constexpr auto k_hung = 120s;

const std::string k_canary = "CANARY_flags_" + std::to_string(::getpid());
const std::string k_program = "int leak = LEAK;\nint main(void) { return leak; }\n";

/// A folder of links to the programs a case allows (no language server), as the PATH of its checks.
class Shelf {
 public:
  explicit Shelf(const std::vector<std::string>& programs) {
    for (const std::string& program : programs) {
      auto found = find_program(program, {"PATH=/usr/local/bin:/usr/bin:/bin"});
      BOOST_REQUIRE_MESSAGE(found.has_value(), program + " is not installed");
      fs::create_symlink(*found, m_folder.path() / program);
    }
  }
  std::vector<std::string> environment() const {
    return {"PATH=" + m_folder.path().string() + ":/nonexistent-agent-run-path", "HOME=" + m_folder.path().string()};
  }

 private:
  test::TempFolder m_folder;
};

/// A workspace beside a folder `outside/` that holds flags.txt, a secret as gcc would quote it.
struct Scene {
  test::TempFolder top;
  fs::path workspace = top.path() / "workspace";
  Scene() {
    top.write("outside/flags.txt", "-DLEAK=" + k_canary + "\n");
    top.write("workspace/main.c", "int main(void) { return 0; }\n");
    workspace = fs::canonical(workspace);
  }
};

EditDiagnostics check_edit(const fs::path& workspace, const std::string& relative, const std::string& content,
                           const std::vector<std::string>& environment) {
  DiagnosticsSettings settings;
  settings.budget = 60s;
  EditChecker checker(settings);
  EditCheckRequest request;
  request.workspace = workspace;
  request.file = workspace / relative;
  request.after = content;
  request.environment = environment;
  BOOST_REQUIRE(write_file_atomically(request.file, content).has_value());
  return checker.check_edit(request);
}

/// Everything of a check's result a model, a transcript or a report would show.
std::string shown(const EditDiagnostics& result) {
  std::string text = diagnostics_text(result, 60s) + "\n" + result.note;
  for (const Problem& problem : result.problems) text += "\n" + problem.message;
  return text;
}

/// `check` on a thread, waited for up to k_hung; when it has not returned by then, the FIFO at
/// `fifo` is opened for writing and closed (its reader gets its end of file), and the case fails.
EditDiagnostics bounded(const fs::path& fifo, const std::function<EditDiagnostics()>& check) {
  std::future<EditDiagnostics> done = std::async(std::launch::async, check);
  if (done.wait_for(k_hung) != std::future_status::ready) {
    BOOST_ERROR("the check still waits on the FIFO " << fifo << " after " << k_hung.count() << "s");
    while (done.wait_for(100ms) != std::future_status::ready) {
      int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (writer >= 0) ::close(writer);
    }
  }
  return done.get();
}

BOOST_AUTO_TEST_SUITE(runner_reads)

BOOST_AUTO_TEST_CASE(compile_flags_in_the_workspace_reach_gcc_and_its_answer) {
  // The positive control: the flags file is read, and gcc's answer quotes the flag's value.
  Scene scene;
  Shelf shelf({"gcc"});
  fs::copy_file(scene.top.path() / "outside/flags.txt", scene.workspace / "compile_flags.txt");
  EditDiagnostics result = check_edit(scene.workspace, "main.c", k_program, shelf.environment());
  BOOST_TEST(result.checker == "gcc");
  BOOST_TEST(shown(result).find(k_canary) != std::string::npos, shown(result));
}

BOOST_AUTO_TEST_CASE(a_compile_flags_link_inside_the_workspace_is_still_followed) {
  Scene scene;
  Shelf shelf({"gcc"});
  fs::create_directories(scene.workspace / "config");
  fs::copy_file(scene.top.path() / "outside/flags.txt", scene.workspace / "config/flags.txt");
  fs::create_symlink("config/flags.txt", scene.workspace / "compile_flags.txt");
  EditDiagnostics result = check_edit(scene.workspace, "main.c", k_program, shelf.environment());
  BOOST_TEST(shown(result).find(k_canary) != std::string::npos, shown(result));
}

BOOST_AUTO_TEST_CASE(a_compile_flags_link_out_of_the_workspace_is_never_read) {
  Scene scene;
  Shelf shelf({"gcc"});
  for (const fs::path& target : {fs::path("../outside/flags.txt"), scene.top.path() / "outside/flags.txt"}) {
    fs::remove(scene.workspace / "compile_flags.txt");
    fs::create_symlink(target, scene.workspace / "compile_flags.txt");
    EditDiagnostics result = check_edit(scene.workspace, "main.c", k_program, shelf.environment());
    BOOST_TEST(result.checker == "gcc");
    BOOST_TEST(shown(result).find("'LEAK' undeclared") != std::string::npos, shown(result));  // gcc answered
    BOOST_TEST(shown(result).find(k_canary) == std::string::npos, target << ": " << shown(result));
  }
}

BOOST_AUTO_TEST_CASE(a_fifo_the_agent_made_in_a_read_file_s_place_never_hangs_the_check) {
  Scene scene;
  Shelf shelf({"gcc"});
  const fs::path flags = scene.workspace / "compile_flags.txt";
  BOOST_REQUIRE(::mkfifo(flags.c_str(), 0644) == 0);
  EditDiagnostics c_result =
      bounded(flags, [&] { return check_edit(scene.workspace, "main.c", k_program, shelf.environment()); });
  BOOST_TEST(c_result.checker == "gcc");

  // A project tsc whose package.json is a FIFO: the runner reads it for TypeScript's version.
  const fs::path typescript = scene.workspace / "node_modules/typescript";
  fs::create_directories(typescript / "bin");
  fs::create_directories(scene.workspace / "node_modules/.bin");
  BOOST_REQUIRE(write_file_atomically(typescript / "bin/tsc", "#!/bin/sh\nexit 0\n").has_value());
  fs::permissions(typescript / "bin/tsc", fs::perms::owner_all);
  fs::create_symlink("../typescript/bin/tsc", scene.workspace / "node_modules/.bin/tsc");
  BOOST_REQUIRE(::mkfifo((typescript / "package.json").c_str(), 0644) == 0);
  BOOST_REQUIRE(write_file_atomically(scene.workspace / "tsconfig.json", "{}\n").has_value());
  bounded(typescript / "package.json",
          [&] { return check_edit(scene.workspace, "main.ts", "export const x: number = 1;\n", shelf.environment()); });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace agent_run
