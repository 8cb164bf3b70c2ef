#include "report/workflow_commands.h"

#include "report/sample_report.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace agent_run {

using namespace std::string_literals;

BOOST_AUTO_TEST_SUITE(workflow_commands)

BOOST_AUTO_TEST_CASE(a_message_escapes_percent_first_then_carriage_return_and_line_feed) {
  BOOST_TEST(command_data("100% done\r\nnext %0A line") == "100%25 done%0D%0Anext %250A line");
}

BOOST_AUTO_TEST_CASE(a_message_keeps_colons_commas_and_double_colons) {
  BOOST_TEST(command_data("a: b, c :: d") == "a: b, c :: d");
}

BOOST_AUTO_TEST_CASE(a_property_also_escapes_colon_and_comma) {
  BOOST_TEST(command_property("src/a,b.py: 50%\n") == "src/a%2Cb.py%3A 50%25%0A");
}

BOOST_AUTO_TEST_CASE(control_characters_and_invalid_utf8_become_printable) {
  BOOST_TEST(command_data("bell\x07 nul\0 bad\xff"s) == "bell#x07 nul#x00 bad\xef\xbf\xbd");
}

BOOST_AUTO_TEST_CASE(an_annotation_names_file_line_column_and_title) {
  Annotation annotation{"error", "src/app.py", 12, 5, "agent-run: fix #1 left a problem", "undefined name 'x'"};
  BOOST_TEST(annotation_command(annotation) ==
             "::error file=src/app.py,line=12,col=5,title=agent-run%3A fix #1 left a problem::undefined name 'x'");
}

BOOST_AUTO_TEST_CASE(hostile_names_cannot_add_properties_or_end_the_command) {
  Annotation annotation{"error", "a,line=1::x.py", 3, 0, "t,file=evil:y", "m\n::warning::injected"};
  BOOST_TEST(annotation_command(annotation) ==
             "::error file=a%2Cline=1%3A%3Ax.py,line=3,title=t%2Cfile=evil%3Ay::m%0A::warning::injected");
}

BOOST_AUTO_TEST_CASE(without_a_line_there_is_no_column_and_empty_properties_are_left_out) {
  BOOST_TEST(annotation_command(Annotation{"warning", "tasks/a.yaml", 0, 7, "", "x"}) ==
             "::warning file=tasks/a.yaml::x");
  BOOST_TEST(annotation_command(Annotation{"error", "", 0, 0, "", "x"}) == "::error::x");
}

BOOST_AUTO_TEST_CASE(step_outputs_give_counts_pass_rate_tokens_and_cost) {
  BOOST_TEST(step_outputs(test::sample_report()) ==
             "attempts=4\npassed=1\nfailed=1\nerrors=1\nskipped=1\npass-rate=0.5000\ntokens=4936\ncost-usd=1.0000\n");
}

BOOST_AUTO_TEST_CASE(an_unknown_cost_and_nothing_judged_leave_their_outputs_empty) {
  RunReport report = test::sample_report();
  report.attempts = {report.attempts[2]};  // an error: nothing judged
  report.attempts[0].usage.cost_usd.reset();
  BOOST_TEST(step_outputs(report) ==
             "attempts=1\npassed=0\nfailed=0\nerrors=1\nskipped=0\npass-rate=\ntokens=1234\ncost-usd=\n");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
