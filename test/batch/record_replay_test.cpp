// --record and --replay through run_batch: a recorded run played back with no model gives the same
// outcomes, tool calls and patches; a changed prompt or tool list fails the replay with a small diff
// (strict), or only warns (loose).
#include "batch/batch_fixture.h"

#include "base/files.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

using test::BatchFixture;
using test::RecordingObserver;

const char* const k_editing_task = R"(prompt: Write the greeting.
policy: ../policy.yaml
checks:
  - run: grep -q hello greeting.txt
script:
  - say: Writing it.
    call: {tool: write_file, input: {path: greeting.txt, content: "hello\n"}}
  - call: {tool: bash, input: {command: "cat greeting.txt"}}
  - say: Done.
)";

std::vector<std::string> calls_of(const RunReport& report) {
  std::vector<std::string> out;
  for (const AttemptResult& attempt : report.attempts) {
    for (const ToolCallRecord& call : attempt.tool_calls) {
      out.push_back(attempt.task_id + " " + call.name + " " + call.input_summary + " " + call.decision);
    }
  }
  return out;
}

/// No model at all: a replay that reached for one would fail with this.
Expected<std::unique_ptr<ModelClient>> no_model(const Task&, const std::string&, int, std::shared_ptr<WireTransport>) {
  return make_error("no model in a replay");
}

RunReport recorded_run(BatchFixture& fixture) {
  fixture.settings.record = true;
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);
  BOOST_REQUIRE(report.has_value());
  fixture.settings.record = false;
  return *report;
}

RunReport replayed_run(BatchFixture& fixture, const ReportFolder& into, ReplayMode mode = ReplayMode::strict) {
  fixture.settings.make_model = no_model;
  fixture.settings.replay = ReplaySettings{fixture.out, mode};
  fixture.settings.reports = &into;
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);
  BOOST_REQUIRE(report.has_value());
  return *report;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(record_replay)

BOOST_AUTO_TEST_CASE(a_recorded_run_replays_with_no_model_to_the_same_outcomes_calls_and_patches) {
  BatchFixture fixture(std::map<std::string, std::string>{{"greet.yaml", k_editing_task}});
  RunReport recorded = recorded_run(fixture);
  BOOST_REQUIRE_EQUAL(recorded.attempts.size(), 1u);
  BOOST_TEST(to_string(recorded.attempts[0].outcome) == "passed");
  auto lines = read_file(fixture.out / "attempts/greet/1/model_exchanges.jsonl");
  BOOST_REQUIRE(lines.has_value());
  BOOST_TEST(std::count(lines->begin(), lines->end(), '\n') == 4);  // the header and three exchanges

  ReportFolder replay_out(fixture.temp.path() / "replayed");
  RunReport replayed = replayed_run(fixture, replay_out);
  BOOST_REQUIRE_EQUAL(replayed.attempts.size(), 1u);
  BOOST_TEST(to_string(replayed.attempts[0].outcome_type) == "passed", replayed.attempts[0].message);
  BOOST_TEST(replayed.attempts[0].model == "script");
  BOOST_TEST(calls_of(replayed) == calls_of(recorded), boost::test_tools::per_element());
  BOOST_TEST(replayed.attempts[0].turns == recorded.attempts[0].turns);
  auto recorded_patch = read_file(fixture.out / recorded.attempts[0].patch_path);
  auto replayed_patch = read_file(replay_out.root() / replayed.attempts[0].patch_path);
  BOOST_REQUIRE(recorded_patch.has_value() && replayed_patch.has_value());
  BOOST_TEST(*replayed_patch == *recorded_patch);
  BOOST_TEST(recorded_patch->find("+hello") != std::string::npos);
  BOOST_TEST(replayed.attempts[0].warnings.empty());
}

BOOST_AUTO_TEST_CASE(a_changed_prompt_fails_a_strict_replay_with_the_first_difference) {
  BatchFixture fixture(std::map<std::string, std::string>{{"greet.yaml", k_editing_task}});
  recorded_run(fixture);
  fixture.tasks[0].prompt = "Write the greeting in French.";
  ReportFolder replay_out(fixture.temp.path() / "replayed");
  RunReport replayed = replayed_run(fixture, replay_out);
  const AttemptResult& attempt = replayed.attempts.at(0);
  BOOST_TEST(to_string(attempt.outcome_type) == "model.unavailable");
  BOOST_TEST(attempt.message.find("replay: request 1 differs from the recording:\n@@ line ") == 0, attempt.message);
  BOOST_TEST(attempt.message.find("\n-       \"text\": \"Write the greeting.\",\n") != std::string::npos, attempt.message);
  BOOST_TEST(attempt.message.find("\n+       \"text\": \"Write the greeting in French.\",\n") != std::string::npos,
             attempt.message);
}

BOOST_AUTO_TEST_CASE(a_changed_tool_list_fails_a_strict_replay_and_only_warns_a_loose_one) {
  BatchFixture fixture(std::map<std::string, std::string>{{"greet.yaml", k_editing_task}});
  recorded_run(fixture);
  fixture.tasks[0].tools = std::vector<std::string>{"write_file", "bash"};  // the schemas offered change
  ReportFolder strict_out(fixture.temp.path() / "strict");
  RunReport strict = replayed_run(fixture, strict_out);
  BOOST_TEST(to_string(strict.attempts.at(0).outcome_type) == "model.unavailable");
  // The system prompt lists the tools: the diff shows that line from just before where it changed.
  BOOST_TEST(strict.attempts[0].message.find("@@ line 2, from column ") != std::string::npos, strict.attempts[0].message);
  BOOST_TEST(strict.attempts[0].message.find("\n- ...") != std::string::npos, strict.attempts[0].message);
  BOOST_TEST(strict.attempts[0].message.find("\n+ ...") != std::string::npos, strict.attempts[0].message);
  ReportFolder loose_out(fixture.temp.path() / "loose");
  RunReport loose = replayed_run(fixture, loose_out, ReplayMode::loose);
  BOOST_TEST(to_string(loose.attempts.at(0).outcome_type) == "passed", loose.attempts[0].message);
  BOOST_TEST(loose.attempts[0].warnings.size() == 3u);  // each of the three requests offered other tools
  BOOST_TEST(loose.attempts[0].warnings[0].find("replay: request 1 differs") == 0);
}

BOOST_AUTO_TEST_CASE(a_replay_without_a_recording_names_the_missing_file) {
  BatchFixture fixture(std::map<std::string, std::string>{{"greet.yaml", k_editing_task}});
  ReportFolder replay_out(fixture.temp.path() / "replayed");
  RunReport replayed = replayed_run(fixture, replay_out);
  BOOST_TEST(to_string(replayed.attempts.at(0).outcome_type) == "model.unavailable");
  BOOST_TEST(replayed.attempts[0].message.find("model_exchanges.jsonl") != std::string::npos,
             replayed.attempts[0].message);
}

BOOST_AUTO_TEST_CASE(a_task_with_model_replay_plays_its_replay_folder_with_no_replay_flag) {
  BatchFixture fixture(std::map<std::string, std::string>{{"greet.yaml", k_editing_task}});
  RunReport recorded = recorded_run(fixture);
  fixture.tasks[0].model = "replay";
  fixture.tasks[0].replay = fixture.out;
  fixture.settings.make_model = no_model;
  ReportFolder replay_out(fixture.temp.path() / "replayed");
  fixture.settings.reports = &replay_out;
  RecordingObserver observer;
  auto replayed = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);
  BOOST_REQUIRE(replayed.has_value());
  BOOST_REQUIRE_EQUAL(replayed->attempts.size(), 1u);
  BOOST_TEST(to_string(replayed->attempts[0].outcome_type) == "passed", replayed->attempts[0].message);
  BOOST_TEST(replayed->attempts[0].model == "replay");
  BOOST_TEST(calls_of(*replayed) == calls_of(recorded), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_recording_made_with_another_model_is_refused_by_name) {
  BatchFixture fixture(std::map<std::string, std::string>{{"greet.yaml", k_editing_task}});
  recorded_run(fixture);
  ReportFolder replay_out(fixture.temp.path() / "replayed");
  fixture.settings.make_model = no_model;
  fixture.settings.replay = ReplaySettings{fixture.out, ReplayMode::strict};
  fixture.settings.reports = &replay_out;
  PlanOptions options;
  options.models = {"script/b"};
  RecordingObserver observer;
  auto replayed = run_batch(fixture.plans(options), fixture.settings, RunReport{}, observer, 1);
  BOOST_REQUIRE(replayed.has_value());
  BOOST_TEST(to_string(replayed->attempts.at(0).outcome_type) == "model.unavailable");
  BOOST_TEST(replayed->attempts[0].message.find("was recorded with script; this attempt runs script/b") !=
                 std::string::npos,
             replayed->attempts[0].message);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
