#include "base/text.h"
#include "exec/attempt_sandbox.h"
#include "exec/process_table.h"
#include "support/fixtures.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// A sandbox over a fresh workspace whose re-survey hides every `.env*` file and `vault/` folder.
struct LateMaskScene {
  test::TempFolder scratch;
  test::TempFolder workspace{test::visible_scratch()};
  std::unique_ptr<AttemptSandbox> sandbox;
  ProcessTable table;

  LateMaskScene() {
    SurveyRequest survey;
    survey.workspace = workspace.path();
    survey.classify = [](const fs::path&, std::string_view relative) {
      bool hidden = relative.starts_with(".env") || relative == "vault";
      return hidden ? PathVerdict{PathClass::hidden, "secrets"} : PathVerdict{};
    };
    auto first = survey_paths(survey);
    BOOST_REQUIRE(first.has_value());
    SandboxRequest request;
    request.workspace = workspace.path();
    request.survey = &*first;
    auto started = AttemptSandbox::start(request, scratch.path(), test::test_environment());
    BOOST_REQUIRE_MESSAGE(started.has_value(), (started ? std::string() : started.error().message));
    sandbox = std::move(*started);
    sandbox->mask_late_paths(survey, *first);
  }
  ProcessResult run(const std::string& command) {
    ProcessSpec spec = shell_command(command, workspace.path(), 60s);
    spec.environment = test::test_environment();
    auto result = table.run(sandbox->wrap(spec));
    BOOST_REQUIRE_MESSAGE(result.has_value(), (result ? std::string() : result.error().message));
    return *result;
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

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
