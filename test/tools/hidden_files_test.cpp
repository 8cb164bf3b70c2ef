// What a deny rule hides stays out of glob, grep and read_file, whichever grep backend runs: by
// path (every way of naming the folder or the file) and by file (a hard link made earlier). Each
// case plants a canary in the hidden files and asserts it never comes back, next to positive
// controls that must keep working.
#include "policy/policy_loader.h"
#include "policy/scope_context.h"
#include "tools_fixture.h"

#include <filesystem>

using namespace agent_run;
using namespace agent_run::test;

namespace {

const char* const k_canary = "CANARY-7f3e";

const char* const k_policy = R"(version: 1
unmatched: allow
rules:
  - id: secrets
    deny: [read_file, glob, grep, edit_file, write_file, bash]
    paths: [".env", ".env.*", "*.pem", ".aws"]
    message: secret files are off limits
)";

/// A workspace holding sources and secrets, the tools bound to the policy the way a run binds them.
struct HiddenFixture : ToolsFixture {
  Policy policy;
  HiddenFixture() {
    Expected<Policy> loaded = load_policy(k_policy, "hidden.yaml");
    BOOST_REQUIRE_MESSAGE(loaded.has_value(), (loaded ? std::string() : loaded.error().message));
    policy = std::move(*loaded);
    folder.write("src/app.py", "def main():\n    return 'source line'\n");
    folder.write(".env", std::string("API_KEY=") + k_canary + "\n");
    folder.write("config/.env.production", std::string("PASSWORD=") + k_canary + "\n");
    folder.write("certs/server.pem", std::string("-----BEGIN ") + k_canary + "\n");
    folder.write(".aws/credentials", std::string("aws_secret_access_key=") + k_canary + "\n");
    bind_policy(policy, scope);
  }

  /// One grep call with each backend: both must answer the same text, which is returned.
  std::string grep_both(Json input) {
    scope.grep_backend = GrepBackend::ripgrep;
    ToolOutput by_ripgrep = call("grep", input);
    scope.grep_backend = GrepBackend::builtin;
    ToolOutput by_builtin = call("grep", input);
    BOOST_TEST(by_ripgrep.content == by_builtin.content, "ripgrep and the built-in search differ for " << input.dump());
    return by_builtin.content;
  }
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_FIXTURE_TEST_SUITE(hidden_files, HiddenFixture)

BOOST_AUTO_TEST_CASE(grep_over_the_workspace_withholds_every_hidden_file_and_says_so) {
  for (const Json& input :
       {Json::object().set("pattern", "CANARY"), Json::object().set("pattern", "CANARY").set("path", "."),
        Json::object().set("pattern", "CANARY").set("glob", "**"),
        Json::object().set("pattern", "CANARY").set("output", "files_with_matches"),
        Json::object().set("pattern", "CANARY").set("output", "count")}) {
    const std::string text = grep_both(input);
    BOOST_TEST_CONTEXT(input.dump() << " -> " << text) {
      BOOST_TEST(!contains(text, k_canary));
      BOOST_TEST(!contains(text, ".env"));
      BOOST_TEST(contains(text, "[4 paths here that the policy hides (rule 'secrets') were not searched]"));
    }
  }
}

BOOST_AUTO_TEST_CASE(grep_of_a_hidden_folder_or_file_named_directly_returns_nothing_of_it) {
  for (const std::string path : {".aws", "config", "certs/server.pem", ".env", "config/.env.production"}) {
    const std::string text = grep_both(Json::object().set("pattern", "CANARY").set("path", path));
    BOOST_TEST_CONTEXT(path << " -> " << text) {
      BOOST_TEST(!contains(text, k_canary));
      BOOST_TEST(contains(text, "the policy hides (rule 'secrets')"));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_hard_link_made_earlier_is_withheld_by_its_inode) {
  std::filesystem::create_hard_link(folder.path() / ".env", folder.path() / "src/notes.txt");
  const std::string text = grep_both(Json::object().set("pattern", "CANARY"));
  BOOST_TEST(!contains(text, k_canary), text);
  BOOST_TEST(!contains(text, "notes.txt"), text);
  const ToolOutput read = this->read("src/notes.txt");
  BOOST_TEST(read.is_error);
  BOOST_TEST(!contains(read.content, k_canary), read.content);
  BOOST_TEST(contains(read.content, "is a file the policy hides (rule 'secrets')"), read.content);
}

BOOST_AUTO_TEST_CASE(glob_lists_no_hidden_path_and_says_how_many_it_left_out) {
  for (const std::string pattern : {"*", "**/*", "**/.env*", "*.pem", ".aws/*"}) {
    const ToolOutput out = call("glob", Json::object().set("pattern", pattern));
    BOOST_TEST_CONTEXT(pattern << " -> " << out.content) {
      BOOST_TEST(!out.is_error);
      BOOST_TEST(!contains(out.content, ".env\n"));
      BOOST_TEST(!contains(out.content, ".env.production"));
      BOOST_TEST(!contains(out.content, "server.pem"));
      BOOST_TEST(!contains(out.content, "credentials"));
      BOOST_TEST(contains(out.content, "that the policy hides (rule 'secrets')"));
      BOOST_TEST((contains(out.content, "were not listed") || contains(out.content, "was not listed")));
    }
  }
}

BOOST_AUTO_TEST_CASE(sources_are_still_found_listed_and_read) {
  BOOST_TEST(contains(grep_both(Json::object().set("pattern", "source line")), "src/app.py\n2:"));
  BOOST_TEST(contains(call("glob", Json::object().set("pattern", "*.py")).content, "src/app.py"));
  BOOST_TEST(contains(read("src/app.py").content, "source line"));
}

BOOST_AUTO_TEST_CASE(without_a_hiding_rule_nothing_is_withheld_and_no_note_is_written) {
  ToolsFixture plain;
  plain.folder.write("a.txt", "foo\n");
  plain.folder.write(".env", "foo\n");
  Expected<Policy> open = load_policy("version: 1\nunmatched: allow\nrules: []\n", "open.yaml");
  BOOST_REQUIRE(open.has_value());
  bind_policy(*open, plain.scope);
  const std::string text = plain.call("grep", Json::object().set("pattern", "foo")).content;
  BOOST_TEST(contains(text, ".env"));
  BOOST_TEST(!contains(text, "the policy hides"));
}

BOOST_AUTO_TEST_SUITE_END()
