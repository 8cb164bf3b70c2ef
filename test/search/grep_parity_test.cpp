// The grep tool promises the same answer whether ripgrep or the built-in search runs. These tests
// generate a repository of a few thousand files holding what tends to break that promise (unicode,
// invalid UTF-8, long lines, CRLF, missing final newlines, byte-order marks, binary files with early
// and late NUL bytes, hidden files, nested .gitignore files, ignored folders, a nested repository,
// symlinks) and run the same searches through both, comparing every file, line and byte.

#include "policy/policy_loader.h"
#include "policy/scope_context.h"
#include "search/grep_report.h"
#include "search/grep_search.h"
#include "tools/tools_fixture.h"

#include <chrono>
#include <fstream>
#include <optional>
#include <random>

#include <stdlib.h>

using namespace agent_run;
using namespace agent_run::test;

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> k_words = {"foo",
                                          "bar",
                                          "baz",
                                          "foo_12",
                                          "foo_123",
                                          "bar_handler(x)",
                                          "init_handler(",
                                          "value",
                                          "Value",
                                          "VALUE",
                                          "TODO:",
                                          "todo",
                                          "FIXME",
                                          "fixme",
                                          "caf\xc3\xa9",
                                          "na\xc3\xafve",
                                          "\xce\xa9mega",
                                          "\xcf\x89mega",
                                          "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
                                          "emoji \xf0\x9f\x9a\x80",
                                          "\xe2\x84\xaa"
                                          "elvin",
                                          "kelvin",
                                          "\xc5\xbfs",
                                          "x = 1;",
                                          "return 0;",
                                          "#include <stdio.h>",
                                          "  # comment",
                                          "1999",
                                          "20240101",
                                          "3.14",
                                          "a.b",
                                          "(paren)",
                                          "[bracket]",
                                          "tab\there",
                                          "\\backslash"};

/// Writes a file of random lines in the style of source code, with the awkward cases mixed in.
std::string random_text(std::mt19937& random, bool crlf, bool final_newline) {
  std::uniform_int_distribution<int> line_count(0, 80);
  std::uniform_int_distribution<int> word_count(0, 9);
  std::uniform_int_distribution<std::size_t> word(0, k_words.size() - 1);
  std::uniform_int_distribution<int> percent(0, 99);
  std::string text;
  const int lines = line_count(random);
  for (int i = 0; i < lines; ++i) {
    std::string line;
    int kind = percent(random);
    if (kind < 5) {
      line = "";
    } else if (kind < 7) {
      line = std::string(600 + percent(random) * 50, 'x') + " foo " + std::string(200, 'y');
    } else if (kind < 9) {
      line = "caf\xe9 latin1 foo \xff\xfe";  // not UTF-8
    } else if (kind < 11) {
      line = "trailing spaces   ";
    } else {
      for (int w = word_count(random); w > 0; --w) line += (line.empty() ? "" : " ") + k_words[word(random)];
    }
    text += line;
    if (i + 1 < lines || final_newline) text += crlf ? "\r\n" : "\n";
  }
  return text;
}

/// The generated repository; `plain/` holds only short text lines (for the format check against rg).
void generate_tree(const fs::path& root, int file_count) {
  make_git_repository(root, {{".gitignore", "*.log\nbuild/\nnode_modules/\n/secret.txt\n*.{bak,orig}\n!keep.log\n"},
                             {"src/.gitignore", "gen_*\n!gen_keep.c\n"}});
  std::mt19937 random(20240601);
  const std::vector<std::string> folders = {
      "src",     "src/core", "src/ui", "src/core/deep",    "lib",         "docs", "tests",
      ".github", ".cfg/x",   "build",  "node_modules/pkg", "vendor/repo", "plain"};
  const std::vector<std::string> extensions = {".c", ".h", ".py", ".js", ".txt", ".md", ".log", ".bak", ""};
  std::uniform_int_distribution<std::size_t> pick_folder(0, folders.size() - 1);
  std::uniform_int_distribution<std::size_t> pick_extension(0, extensions.size() - 1);
  std::uniform_int_distribution<int> percent(0, 99);
  for (const std::string& folder : folders) fs::create_directories(root / folder);
  for (int i = 0; i < file_count; ++i) {
    const std::string folder = folders[pick_folder(random)];
    std::string name =
        (percent(random) < 10 ? "gen_" : "file") + std::to_string(i) + extensions[pick_extension(random)];
    if (percent(random) < 3) name = "with space " + name;
    if (percent(random) < 3) name = "\xc3\xa9t\xc3\xa9_" + name;
    std::string content;
    if (folder == "plain") {
      for (int line = 0; line < 12; ++line)
        content += k_words[(i + line) % 14] + " plain " + std::to_string(line) + "\n";
    } else {
      const int kind = percent(random);
      content = random_text(random, kind < 10, kind % 7 != 0);
      if (kind >= 95) content = std::string("\0", 1) + content + "foo";  // binary from the start
      else if (kind >= 92)
        content = content + std::string(70000, 'z') + std::string("\n\0late\n", 7) + "foo\n";  // NUL late
      else if (kind >= 90) content = "\xef\xbb\xbf" + content;                                 // a byte-order mark
    }
    std::ofstream(root / folder / name, std::ios::binary) << content;
  }
  std::ofstream(root / "src/gen_keep.c", std::ios::binary) << "foo kept\n";
  std::ofstream(root / "keep.log", std::ios::binary) << "foo log kept\n";
  std::ofstream(root / "secret.txt", std::ios::binary) << "foo secret\n";
  std::ofstream(root / "big.txt", std::ios::binary)
      << random_text(random, false, true) << std::string(300000, 'q') << "\nfoo at the end\n";
  // Files larger than the built-in search's chunk (128 KiB): matches, context and NUL bytes across its edges.
  fs::create_directories(root / "chunky");
  std::string many_lines;
  while (many_lines.size() < 1500000) many_lines += random_text(random, false, true);
  std::ofstream(root / "chunky/many_lines.txt", std::ios::binary) << many_lines;
  std::ofstream(root / "chunky/many_lines_crlf.txt", std::ios::binary)
      << random_text(random, true, true) << many_lines.substr(0, 400000);
  std::ofstream(root / "chunky/nul_after_2mb.txt", std::ios::binary)
      << many_lines << many_lines.substr(0, 600000) << std::string("\0", 1);
  std::ofstream(root / "chunky/nul_at_the_chunk_edge.txt", std::ios::binary)
      << many_lines.substr(0, 131072) << std::string("\0", 1) << many_lines.substr(0, 1000);
  std::ofstream(root / "chunky/nul_just_after_the_edge.txt", std::ios::binary)
      << many_lines.substr(0, 131073) << std::string("\0", 1);
  std::ofstream(root / "chunky/long_line_among_matches.txt", std::ios::binary)
      << many_lines.substr(0, 200000) << "\n"
      << std::string(500000, 'w') << " foo TODO " << std::string(9000, 'v') << "\n"
      << many_lines.substr(0, 300000) << "foo without a final newline";
  fs::create_directories(root / "vendor/repo/.git");
  std::ofstream(root / "vendor/repo/.gitignore", std::ios::binary) << "*.md\n";
  fs::create_symlink("big.txt", root / "link.txt");
  fs::create_directory_symlink("src", root / "src-link");
}

/// One tree for the whole suite: generating it is the slow part, so it goes to memory (/dev/shm) when
/// the machine has it, else to the temporary folder.
struct ParityTree {
  std::filesystem::path root;
  std::optional<TempFolder> fallback;
  ParityTree() {
    char in_memory[] = "/dev/shm/agent-run-parity-XXXXXX";
    if (::mkdtemp(in_memory) != nullptr) {
      root = in_memory;
    } else {
      fallback.emplace();
      root = fallback->path();
    }
    generate_tree(root, 3000);
  }
  ~ParityTree() {
    std::error_code ec;
    if (!fallback) std::filesystem::remove_all(root, ec);
  }
  ParityTree(const ParityTree&) = delete;
  ParityTree& operator=(const ParityTree&) = delete;
};

const ParityTree& parity_tree() {
  static const ParityTree tree;
  return tree;
}

std::vector<GrepFile> collect(const GrepRequest& request, GrepBackend backend) {
  const fs::path& root = parity_tree().root;
  auto patterns = prepare_patterns(request.pattern, request.case_insensitive);
  BOOST_REQUIRE_MESSAGE(patterns.has_value(), request.pattern);
  // What is checked is the answer, not its speed: the deadline only stops a hung search (60 s was
  // passed under ci/stress-tests.sh's load, twice in two runs).
  SearchScope scope{root, std::chrono::steady_clock::now() + std::chrono::minutes(10), {"PATH=/usr/bin:/bin"}};
  std::vector<GrepFile> files;
  GrepSink sink = [&](GrepFile&& file) {
    files.push_back(std::move(file));
    return WalkStep::go_on;
  };
  Expected<void> done = backend == GrepBackend::builtin
                            ? search_builtin(scope, request, *patterns, sink)
                            : search_with_ripgrep("/usr/bin/rg", scope, request, *patterns, sink);
  BOOST_REQUIRE_MESSAGE(done.has_value(), (done ? std::string() : done.error().message));
  return files;
}

std::string describe(const std::vector<GrepFile>& files) {
  std::string out;
  for (const GrepFile& file : files) {
    out += file.path + " (" + std::to_string(file.match_count) + ")\n";
    for (const GrepLine& line : file.lines)
      out += std::to_string(line.number) + (line.is_match ? ":" : "-") + line.text + "\n";
  }
  return out;
}

GrepRequest request_for(const std::string& pattern) {
  GrepRequest request;
  request.pattern = pattern;
  request.max_results = 1000000;
  return request;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(grep_parity)

BOOST_AUTO_TEST_CASE(every_file_and_line_agrees_for_many_searches) {
  BOOST_REQUIRE_MESSAGE(fs::exists("/usr/bin/rg"), "ripgrep is not installed (ci/setup.sh installs it)");
  std::vector<GrepRequest> requests;
  for (const char* pattern : {"TODO",
                              "\\bfoo_\\d+\\b",
                              "\\w+_handler\\(",
                              "^\\s*#",
                              "[0-9]{4,}",
                              "caf\xc3\xa9",
                              "caf.",
                              "\\s+$",
                              "^$",
                              "\xe6\x97\xa5\xe6\x9c\xac",
                              "\\r$",
                              "foo|bar",
                              "[^a-z0-9 ]{3,}",
                              "(?i)fixme",
                              "x{500,}",
                              "latin1",
                              "\xf0\x9f\x9a\x80",
                              "a\\.b",
                              "\\[bracket\\]",
                              "late",
                              "plain [0-9]+$",
                              "TODO|FIXME|value",
                              "foo_123|foo|oo_1",
                              "caf\xc3\xa9|na\xc3\xafve|bar",
                              "zzz|TODO:",
                              "|foo"}) {
    requests.push_back(request_for(pattern));
  }
  for (const char* pattern :
       {"todo", "kelvin", "\xcf\x89MEGA", "value", "\xc5\xbf", "todo|fixme|VALUE", "bar|kelvin"}) {
    GrepRequest request = request_for(pattern);
    request.case_insensitive = true;
    requests.push_back(request);
  }
  GrepRequest with_context = request_for("foo");
  with_context.before = 2;
  with_context.after = 2;
  requests.push_back(with_context);
  GrepRequest uneven = request_for("return 0;");
  uneven.before = 3;
  uneven.after = 1;
  requests.push_back(uneven);
  for (const char* glob : {"*.py", "src/**/*.{c,h}", "!*.txt", "*.log", "**/deep/*"}) {
    GrepRequest request = request_for("foo");
    request.globs = {glob};
    requests.push_back(request);
  }
  for (const char* path : {"src", "build", "vendor/repo", "big.txt", ".github", "chunky/many_lines.txt", "chunky"}) {
    GrepRequest request = request_for("foo");
    request.path = path;
    requests.push_back(request);
  }
  for (GrepOutput output : {GrepOutput::files_with_matches, GrepOutput::count}) {
    for (const char* pattern : {"foo", ".", ""}) {
      GrepRequest request = request_for(pattern);
      request.output = output;
      requests.push_back(request);
    }
  }
  GrepRequest capped = request_for("foo");
  capped.max_results = 7;
  requests.push_back(capped);
  for (int lines : {1, 7, 50}) {  // context kept across the chunk's edge
    GrepRequest request = request_for("TODO|FIXME");
    request.path = "chunky";
    request.before = lines;
    request.after = lines;
    requests.push_back(request);
  }

  std::size_t files_compared = 0;
  for (const GrepRequest& request : requests) {
    const std::vector<GrepFile> by_ripgrep = collect(request, GrepBackend::ripgrep);
    const std::vector<GrepFile> by_builtin = collect(request, GrepBackend::builtin);
    BOOST_TEST(describe(by_ripgrep) == describe(by_builtin),
               "pattern '" << request.pattern << "' path " << request.path);
    files_compared += by_ripgrep.size();
  }
  BOOST_TEST(files_compared > 10000u);  // the searches did find things to compare
}

BOOST_AUTO_TEST_CASE(the_tool_answers_the_same_text_through_either_backend) {
  ToolScope scope;
  SessionState session;
  scope.workspace = parity_tree().root;
  scope.environment = {"PATH=/usr/bin:/bin"};
  ToolRegistry tools = make_tool_registry(std::nullopt);
  const std::vector<Json> calls = {
      Json::object().set("pattern", "foo"),
      Json::object().set("pattern", "TODO").set("context", 3).set("max_results", 40),
      Json::object().set("pattern", "caf.").set("output", "count").set("max_results", 500),
      Json::object().set("pattern", "kelvin").set("case_insensitive", true).set("output", "files_with_matches"),
      Json::object().set("pattern", "x{500,}").set("glob", "src/**"),
      Json::object().set("pattern", "foo").set("path", "big.txt"),
      Json::object().set("pattern", "nothing-matches-this"),
  };
  for (const Json& input : calls) {
    scope.grep_backend = GrepBackend::ripgrep;
    const ToolOutput by_ripgrep = tools.find("grep")->run(input, scope, session, std::chrono::minutes(2));
    scope.grep_backend = GrepBackend::builtin;
    const ToolOutput by_builtin = tools.find("grep")->run(input, scope, session, std::chrono::minutes(2));
    BOOST_TEST(!by_ripgrep.is_error);
    BOOST_TEST(by_ripgrep.content == by_builtin.content, input.dump());
  }
}

BOOST_AUTO_TEST_CASE(files_the_policy_hides_are_withheld_the_same_way_by_either_backend) {
  Expected<Policy> policy = load_policy(R"(version: 1
unmatched: allow
rules:
  - id: hidden-docs
    deny: [read_file, grep, glob]
    paths: ["docs", "*.md", ".cfg"]
)",
                                        "parity.yaml");
  BOOST_REQUIRE(policy.has_value());
  ToolScope scope;
  SessionState session;
  scope.workspace = parity_tree().root;
  scope.environment = {"PATH=/usr/bin:/bin"};
  bind_policy(*policy, scope);
  ToolRegistry tools = make_tool_registry(std::nullopt);
  const std::vector<Json> calls = {
      Json::object().set("pattern", "foo").set("output", "files_with_matches").set("max_results", 5000),
      Json::object().set("pattern", "TODO").set("context", 2).set("max_results", 400),
      Json::object().set("pattern", "caf.").set("output", "count").set("max_results", 5000),
      Json::object().set("pattern", "foo").set("path", "docs"),
      Json::object().set("pattern", "foo").set("glob", "**/*.md"),
  };
  for (const Json& input : calls) {
    scope.grep_backend = GrepBackend::ripgrep;
    const ToolOutput by_ripgrep = tools.find("grep")->run(input, scope, session, std::chrono::minutes(2));
    scope.grep_backend = GrepBackend::builtin;
    const ToolOutput by_builtin = tools.find("grep")->run(input, scope, session, std::chrono::minutes(2));
    BOOST_TEST_CONTEXT(input.dump()) {
      BOOST_TEST(!by_ripgrep.is_error);
      BOOST_TEST(by_ripgrep.content == by_builtin.content);
      BOOST_TEST(by_builtin.content.find(".md\n") == std::string::npos);
      BOOST_TEST(by_builtin.content.find(".md:") == std::string::npos);
      BOOST_TEST(by_builtin.content.find("docs/") == std::string::npos);
      BOOST_TEST(by_builtin.content.find(".cfg/") == std::string::npos);
      BOOST_TEST(by_builtin.content.find("the policy hides (rule 'hidden-docs')") != std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_format_is_ripgreps_heading_format_byte_for_byte) {
  BOOST_REQUIRE(fs::exists("/usr/bin/rg"));
  const fs::path& root = parity_tree().root;
  for (int context_lines : {0, 2}) {
    GrepRequest request = request_for("plain (3|7|11)$");
    request.path = "plain";
    request.before = request.after = context_lines;
    GrepReport report(request);
    auto patterns = prepare_patterns(request.pattern, false);
    SearchScope scope{root, std::chrono::steady_clock::now() + std::chrono::seconds(60), {}};
    BOOST_REQUIRE(
        search_builtin(scope, request, *patterns, [&](GrepFile&& file) { return report.add(std::move(file)); }));
    CommandResult rg = run_shell("rg --no-config --heading --line-number --with-filename --sort path --context " +
                                     std::to_string(context_lines) + " -e 'plain (3|7|11)$' plain",
                                 root);
    BOOST_REQUIRE(rg.exit_code == 0);
    BOOST_TEST(report.text().size() < GrepReport::k_max_output_bytes);
    BOOST_TEST(report.text() == rg.output);
  }
}

BOOST_AUTO_TEST_SUITE_END()
