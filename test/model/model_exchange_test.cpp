// What --record keeps of an exchange and how --replay compares requests: secrets redacted, the
// workspace folder and dates normalised, the first difference as a small diff, turns read back whole.
#include "base/files.h"
#include "model/model_exchange.h"
#include "model/recording_client.h"
#include "model/replay_client.h"
#include "model/scripted_model.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

Conversation conversation_with(const std::string& text, const std::string& workspace = "/scratch/run-1/ws") {
  Conversation conversation;
  conversation.system = "# Environment\n- workspace: " + workspace + "\n- today's date (UTC): 2026-12-01\n";
  conversation.messages.push_back(Message{Role::user, text});
  return conversation;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(model_exchange)

BOOST_AUTO_TEST_CASE(the_recording_redacts_secret_values_and_replays_the_turns) {
  test::TempFolder folder;
  std::filesystem::path file = folder.path() / "attempts/t/1/model_exchanges.jsonl";
  std::vector<ScriptedTurn> script = {ScriptedTurn{"Calling.", {ScriptedCall{"bash", Json::object().set("command", "ls")}}},
                                      ScriptedTurn{"Done.", {}}};
  RecordingClient recording(std::make_unique<ScriptedModel>(script), file, "/scratch/run-1/ws", {"s3cr3t-value"}, nullptr);
  BOOST_REQUIRE(recording.complete(conversation_with("the token is s3cr3t-value"), {}).has_value());
  BOOST_REQUIRE(recording.complete(conversation_with("again"), {}).has_value());
  auto text = read_file(file);
  BOOST_REQUIRE(text.has_value());
  BOOST_TEST(text->find("s3cr3t-value") == std::string::npos);
  BOOST_TEST(text->find("[redacted]") != std::string::npos);

  auto read = read_recording(file);
  BOOST_REQUIRE_MESSAGE(read.has_value(), (read ? "" : read.error().message));
  BOOST_TEST(read->model == "script");
  BOOST_REQUIRE_EQUAL(read->exchanges.size(), 2u);
  // Another workspace and another day: the same requests once normalised.
  ReplayClient replay(*read, ReplayMode::strict, "/scratch/run-2/ws", {"s3cr3t-value"});
  Conversation first = conversation_with("the token is s3cr3t-value");
  first.system = "# Environment\n- workspace: /scratch/run-2/ws\n- today's date (UTC): 2027-01-05\n";
  auto turn = replay.complete(first, {});
  BOOST_REQUIRE_MESSAGE(turn.has_value(), (turn ? "" : turn.error().message));
  BOOST_TEST(turn->message.text == "Calling.");
  BOOST_REQUIRE_EQUAL(turn->message.tool_calls.size(), 1u);
  BOOST_TEST(turn->message.tool_calls[0].input.dump() == R"({"command":"ls"})");
  BOOST_TEST(to_string(turn->stop_reason) == std::string("tool_use"));
  auto changed = replay.complete(conversation_with("something else", "/scratch/run-2/ws"), {});
  BOOST_REQUIRE(!changed.has_value());
  BOOST_TEST(changed.error().message.find("replay: request 2 differs from the recording:\n") == 0);
  BOOST_TEST(changed.error().message.find("-       \"text\": \"again\",\n+       \"text\": \"something else\",\n") !=
                 std::string::npos,
             changed.error().message);
  BOOST_TEST(!replay.complete(conversation_with("again", "/scratch/run-2/ws"), {}).has_value());  // never recorded
}

BOOST_AUTO_TEST_CASE(volatile_parts_are_normalised) {
  BOOST_TEST(normalise_volatile("at /w/x/a.py on 2026-12-01T10:00:03.5Z and 2026-12-01", "/w/x") ==
             "at <workspace>/a.py on <date> and <date>");
  BOOST_TEST(normalise_volatile("version 1-2-3 and 20261201", "") == "version 1-2-3 and 20261201");
  BOOST_TEST(normalise_volatile("Ran 1 test in 0.001s; took 12ms, 1.5ms", "") ==
             "Ran 1 test in <duration>; took <duration>, <duration>");
  BOOST_TEST(normalise_volatile("3 tests, v1.2s, 10s, x12ms, 5 mss", "") == "3 tests, v1.2s, 10s, x12ms, 5 mss");
  BOOST_TEST(normalise_volatile("Started in the background as p1 (pid 48213).", "") ==
             "Started in the background as p1 (pid <pid>).");
  BOOST_TEST(normalise_volatile("rapid 12, pid 12a, pid x", "") == "rapid 12, pid 12a, pid x");
}

BOOST_AUTO_TEST_CASE(the_first_difference_shows_the_line_before_and_both_versions) {
  BOOST_TEST(first_difference("a\nb\nc\n", "a\nb\nc\n").empty());
  BOOST_TEST(first_difference("a\nb\nc\n", "a\nB\nc\n") == "@@ line 2 @@\n  a\n- b\n+ B\n");
  BOOST_TEST(first_difference("a\n", "a\nmore\n") == "@@ line 2 @@\n  a\n- (the recorded request ends here)\n+ more\n");
  std::string long_line(200, 'x');
  BOOST_TEST(first_difference(long_line + "old tail\n", long_line + "new tail\n") ==
             "@@ line 1, from column 121 @@\n- ..." + std::string(80, 'x') + "old tail\n+ ..." + std::string(80, 'x') +
                 "new tail\n");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
