#include "support/fixtures.h"

#include "base/digest.h"
#include "base/files.h"
#include "exec/process.h"
#include "exec/sandbox_layout.h"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace agent_run::test {

TempFolder::TempFolder() {
  auto folder = make_unique_folder(std::filesystem::temp_directory_path(), "agent-run-test-");
  BOOST_REQUIRE_MESSAGE(folder.has_value(), "cannot make a temporary folder");
  m_path = std::filesystem::canonical(*folder);
}

TempFolder::TempFolder(const std::filesystem::path& parent) {
  std::filesystem::create_directories(parent);
  auto folder = make_unique_folder(parent, "agent-run-test-");
  BOOST_REQUIRE_MESSAGE(folder.has_value(), "cannot make a temporary folder under " + parent.string());
  m_path = std::filesystem::canonical(*folder);
}

TempFolder::~TempFolder() {
  std::error_code ec;
  std::filesystem::permissions(m_path, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
  std::filesystem::remove_all(m_path, ec);
}

std::filesystem::path TempFolder::write(const std::string& relative, const std::string& content) const {
  std::filesystem::path full = m_path / relative;
  std::filesystem::create_directories(full.parent_path());
  std::ofstream out(full, std::ios::binary);
  out << content;
  return full;
}

std::string TempFolder::read(const std::string& relative) const {
  std::ifstream in(m_path / relative, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

CommandResult run_shell(const std::string& command, const std::filesystem::path& cwd) {
  ProcessSpec spec = shell_command(command, cwd, std::chrono::minutes(2));
  spec.output_head_bytes = 4 << 20;
  spec.output_tail_bytes = 4 << 20;
  auto result = run_process(spec);
  BOOST_REQUIRE_MESSAGE(result.has_value(), "cannot run: " + command);
  return CommandResult{result->exit_code, result->output};
}

std::string shell_quote(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

void make_git_repository(const std::filesystem::path& folder, const std::map<std::string, std::string>& files) {
  std::filesystem::create_directories(folder);
  for (const auto& [relative, content] : files) {
    std::filesystem::path full = folder / relative;
    std::filesystem::create_directories(full.parent_path());
    std::ofstream(full, std::ios::binary) << content;
  }
  CommandResult result = run_shell(
      "git init -q -b main . && git -c user.name=test -c user.email=test@example.invalid add -A && "
      "git -c user.name=test -c user.email=test@example.invalid commit -q -m initial",
      folder);
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, "git failed: " + result.output);
}

CommandResult run_agent_run(const std::vector<std::string>& arguments, const std::filesystem::path& cwd) {
  std::string command = shell_quote(AGENT_RUN_BINARY);
  for (const std::string& argument : arguments) {
    command += " " + shell_quote(argument);
  }
  return run_shell(command, cwd);
}

std::filesystem::path source_root() { return AGENT_RUN_SOURCE_ROOT; }

std::string agent_run_binary() { return AGENT_RUN_BINARY; }

std::filesystem::path tools_folder() {
  std::error_code ec;
  std::filesystem::path resolved = std::filesystem::canonical(source_root() / ".tools", ec);
  return ec ? source_root() / ".tools" : resolved;  // not installed: the tests that need it say so
}

std::string junit_schema() { return JUNIT_SCHEMA; }

std::filesystem::path visible_scratch() {
  const std::filesystem::path build = std::filesystem::path(AGENT_RUN_BINARY).parent_path();
  if (!private_folder_holding(build)) return build / "test" / "scratch";
  // A build under /tmp or /var/tmp (a clone there): the sandbox hides it, so the scratch goes under
  // HOME, one folder per build.
  const char* home = std::getenv("HOME");
  std::filesystem::path base = home && *home ? std::filesystem::path(home) : std::filesystem::path("/root");
  BOOST_REQUIRE_MESSAGE(!private_folder_holding(base), "HOME (" + base.string() + ") is hidden in the sandbox too");
  return base / ".cache" / "agent-run-test-scratch" / sha256_hex(build.string()).substr(0, 16);
}

void check_report_folder(const std::filesystem::path& folder) {
  auto check = [&](const std::string& what, const std::string& command) {
    CommandResult result = run_shell(command, folder);
    BOOST_TEST(result.exit_code == 0, folder.string() << ": " << what << ": " << result.output);
  };
  std::filesystem::path root = source_root();
  check("report.json against the report schema",
        "/usr/bin/python3 " + shell_quote((root / "test/fixtures/report/validate_json_schema.py").string()) + " " +
            shell_quote((root / "reports/report.schema.json").string()) + " report.json");
  check("junit.xml against reports/junit.xsd", "xmllint --noout --schema " + shell_quote(JUNIT_SCHEMA) + " junit.xml");
  std::filesystem::path reference = root / "../shared/reference/junit-10.xsd";
  if (std::filesystem::exists(reference)) {
    check("junit.xml against junit-10.xsd",
          "xmllint --noout --schema " + shell_quote(reference.string()) + " junit.xml");
  }
  check("report.html as well-formed XML", "xmllint --noout report.html");
  std::error_code ec;
  std::uintmax_t summary = std::filesystem::file_size(folder / "summary.md", ec);
  BOOST_TEST(!ec, folder.string() << ": no summary.md");
  BOOST_TEST(summary <= 1000u * 1000u, folder.string() << ": summary.md has " << summary << " bytes");
}

}  // namespace agent_run::test
