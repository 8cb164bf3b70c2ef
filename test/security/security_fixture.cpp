#include "security/security_fixture.h"

#include "base/digest.h"
#include "base/files.h"
#include "exec/process.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace agent_run::test {

namespace fs = std::filesystem;

namespace {

const std::string& process_suffix() {
  static const std::string suffix = [] {
    std::random_device device;
    std::mt19937_64 engine((static_cast<std::uint64_t>(device()) << 32) ^ device() ^ ::getpid());
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(engine()));
    return std::string(text);
  }();
  return suffix;
}

std::string read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void write_whole(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

/// Binds a unix socket at `path` through /proc/self/fd, so a path longer than sun_path still works.
void bind_unix_path(int socket, const fs::path& path) {
  fs::create_directories(path.parent_path());
  int folder = ::open(path.parent_path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (folder < 0) throw std::runtime_error("cannot open " + path.parent_path().string());
  std::string name = "/proc/self/fd/" + std::to_string(folder) + "/" + path.filename().string();
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, name.c_str(), sizeof address.sun_path - 1);
  int rc = ::bind(socket, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::close(folder);
  if (rc != 0) throw std::runtime_error("cannot bind " + path.string() + ": " + std::strerror(errno));
}

void listen_or_throw(int socket, const std::string& what) {
  if (::listen(socket, 64) != 0) throw std::runtime_error("cannot listen on " + what + ": " + std::strerror(errno));
  ::fcntl(socket, F_SETFL, ::fcntl(socket, F_GETFL) | O_NONBLOCK);
}

/// Digests of the files under `root` (folders only as the paths of what they hold), keyed by
/// `label/relative`; `skip` leaves out relative paths.
void add_digests(TreeDigest& digest, const std::string& label, const fs::path& root,
                 bool (*skip)(const std::string&) = nullptr) {
  std::error_code ec;
  if (!fs::exists(root, ec)) return;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    std::string relative = it->path().lexically_relative(root).string();
    if (skip && skip(relative)) continue;
    fs::file_status status = it->symlink_status(ec);
    std::string key = label + "/" + relative;
    if (fs::is_symlink(status)) digest[key] = "link " + fs::read_symlink(it->path(), ec).string();
    else if (fs::is_regular_file(status)) digest[key] = "file " + sha256_hex(read_whole(it->path()));
    else if (fs::is_socket(status)) digest[key] = "socket";
  }
}

bool is_git_index(const std::string& relative) { return relative == "index"; }

std::string python_connect(const std::string& family, const std::string& address) {
  return "python3 -c 'import socket; s=socket.socket(" + family + ", socket.SOCK_STREAM); s.settimeout(3); s.connect(" +
         address + "); print(\"connected\")'";
}

}  // namespace

std::string canary(std::string_view kind) { return "CANARY-" + std::string(kind) + "-" + process_suffix(); }

CountingListener::CountingListener(Kind kind, const std::string& where) : m_kind(kind), m_where(where) {
  int family = kind == Kind::tcp4 ? AF_INET : kind == Kind::tcp6 ? AF_INET6 : AF_UNIX;
  m_socket = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (m_socket < 0) throw std::runtime_error("cannot make a socket");
  if (kind == Kind::tcp4) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (::bind(m_socket, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
        ::getsockname(m_socket, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
      throw std::runtime_error("cannot bind 127.0.0.1");
    }
    m_port = ntohs(address.sin_port);
  } else if (kind == Kind::tcp6) {
    sockaddr_in6 address{};
    address.sin6_family = AF_INET6;
    address.sin6_addr = in6addr_loopback;
    socklen_t size = sizeof address;
    if (::bind(m_socket, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
        ::getsockname(m_socket, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
      throw std::runtime_error("cannot bind ::1");
    }
    m_port = ntohs(address.sin6_port);
  } else if (kind == Kind::unix_path) {
    bind_unix_path(m_socket, where);
  } else {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path + 1, where.data(), std::min(where.size(), sizeof address.sun_path - 2));
    socklen_t size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + where.size());
    if (::bind(m_socket, reinterpret_cast<sockaddr*>(&address), size) != 0) {
      throw std::runtime_error("cannot bind the abstract socket " + where);
    }
  }
  listen_or_throw(m_socket, where.empty() ? "loopback" : where);
}

CountingListener::~CountingListener() {
  ::close(m_socket);
  if (m_kind == Kind::unix_path) {
    std::error_code ec;
    fs::remove(m_where, ec);
  }
}

int CountingListener::connections() {
  for (;;) {
    int client = ::accept4(m_socket, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) break;
    ++m_count;
    ::close(client);
  }
  return m_count;
}

std::string CountingListener::connect_command() const {
  switch (m_kind) {
    case Kind::tcp4: return python_connect("socket.AF_INET", "(\"127.0.0.1\", " + std::to_string(m_port) + ")");
    case Kind::tcp6: return python_connect("socket.AF_INET6", "(\"::1\", " + std::to_string(m_port) + ")");
    case Kind::unix_path: return python_connect("socket.AF_UNIX", "\"" + m_where + "\"");
    case Kind::unix_abstract: return python_connect("socket.AF_UNIX", "\"\\0" + m_where + "\"");
  }
  return "false";
}

std::vector<std::pair<std::string, std::string>> Canaries::secrets() const {
  return {{".env", env_file},
          {"certs/server.pem", pem},
          {".aws/credentials", aws},
          {"the committed deploy/.env.committed", committed},
          {"setup's config/.env.production", setup_secret},
          {"ANTHROPIC_API_KEY", api_key},
          {"DATABASE_URL", database},
          {"SESSION_COOKIE", cookie},
          {"MIRROR_URL's password", mirror},
          {"HOME/.ssh/id_rsa", ssh_key},
          {".git/config's extraheader", git_token},
          {"outside/outside.txt", outside},
          {"the /tmp canary", tmp_outside}};
}

SecurityFixture::SecurityFixture() {
  m_canaries = Canaries{canary("ENV"),      canary("PEM"),     canary("AWS"),    canary("COMMITTED"), canary("SETUP"),
                        canary("APIKEY"),   canary("DB"),      canary("COOKIE"), canary("MIRROR"),    canary("SSH"),
                        canary("GITTOKEN"), canary("OUTSIDE"), canary("TMP")};
  fs::path scratch = test::visible_scratch() / "security";  // seen in the sandbox wherever the clone is
  fs::create_directories(scratch);
  auto root = make_unique_folder(scratch, "scene-");
  BOOST_REQUIRE_MESSAGE(root.has_value(), "cannot make the security fixture's folder under " + scratch.string());
  m_root = fs::canonical(*root);
  m_outside = m_root / "outside";
  write_whole(m_outside / "outside.txt", m_canaries.outside + "\n");
  write_whole(m_outside / "victim" / "a", "victim a\n");
  write_whole(m_outside / "victim" / "b", "victim b\n");
  auto tmp = make_unique_folder(fs::temp_directory_path(), "agent-run-canary-");
  BOOST_REQUIRE(tmp.has_value());
  m_tmp_outside = fs::canonical(*tmp);
  write_whole(m_tmp_outside / "outside.txt", m_canaries.tmp_outside + "\n");
  m_tcp = std::make_unique<CountingListener>(CountingListener::Kind::tcp4);
  m_tcp6 = std::make_unique<CountingListener>(CountingListener::Kind::tcp6);
  m_abstract_name = "agent-run-canary-" + process_suffix() + "-" + m_root.filename().string();
  m_abstract = std::make_unique<CountingListener>(CountingListener::Kind::unix_abstract, m_abstract_name);
  make_home();
  make_repository();
  for (std::string name : {"default", "read-only", "permissive"}) {
    fs::create_directories(m_root / "policies");
    fs::copy_file(source_root() / "policies" / (name + ".yaml"), policy(name), fs::copy_options::overwrite_existing);
  }
}

SecurityFixture::~SecurityFixture() {
  m_docker.reset();
  std::error_code ec;
  for (const fs::path& folder : {m_root, m_tmp_outside}) {
    // Undo what an attack or a test may have left unreadable, then remove everything.
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec))
        fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
    fs::remove_all(folder, ec);
  }
}

void SecurityFixture::make_home() {
  m_home = m_root / "home";
  write_whole(m_home / ".ssh" / "id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + m_canaries.ssh_key + "\n");
  write_whole(m_home / ".gitconfig", "[user]\n\tname = fixture\n\temail = fixture@example.invalid\n");
  m_docker = std::make_unique<CountingListener>(CountingListener::Kind::unix_path,
                                                (m_home / ".docker" / "run" / "docker.sock").string());
}

void SecurityFixture::make_repository() {
  m_repository = m_root / "repo";
  make_git_repository(m_repository, {{"src/app.py", "def add(a, b):\n    return a + b\n"},
                                     {"tests/__init__.py", ""},
                                     {"tests/test_app.py",
                                      "import os, sys, unittest\n"
                                      "sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'src'))\n"
                                      "import app\n\n\n"
                                      "class AppTest(unittest.TestCase):\n"
                                      "    def test_add(self):\n"
                                      "        self.assertEqual(app.add(2, 3), 5)\n"},
                                     {"Makefile", "test:\n\tpython3 -m unittest -q\n"},
                                     {".github/workflows/ci.yml", "on: push\njobs: {}\n"},
                                     {"README.md", "A small project the security suite attacks.\n"},
                                     {"deploy/.env.committed", "DEPLOY_TOKEN=" + m_canaries.committed + "\n"}});
  CommandResult removed = run_shell(
      "git rm -q deploy/.env.committed && git -c user.name=test -c user.email=test@example.invalid commit -q -m "
      "'remove the deploy secret' && git config http.https://github.com/.extraheader "
      "'AUTHORIZATION: basic " +
          m_canaries.git_token + "'",
      m_repository);
  BOOST_REQUIRE_MESSAGE(removed.exit_code == 0, removed.output);
  write_whole(m_repository / ".env", "API_KEY=" + m_canaries.env_file + "\n");
  write_whole(m_repository / "certs" / "server.pem", "-----BEGIN PRIVATE KEY-----\n" + m_canaries.pem + "\n");
  write_whole(m_repository / ".aws" / "credentials", "[default]\naws_secret_access_key = " + m_canaries.aws + "\n");
  write_whole(m_repository / ".envrc.sample", "export API_KEY=changeme\n");
  fs::create_directories(m_repository / "notes");
  fs::create_hard_link(m_repository / ".env", m_repository / "notes" / "alias.txt");
}

fs::path SecurityFixture::policy(std::string_view name) const {
  return m_root / "policies" / (std::string(name) + ".yaml");
}

std::vector<std::string> SecurityFixture::environment() const {
  std::vector<std::string> environment;
  for (const char* name : {"PATH", "LANG", "LC_ALL", "TMPDIR", "AGENT_RUN_SKIP_SANDBOX_TESTS"}) {
    if (const char* value = std::getenv(name)) environment.push_back(std::string(name) + "=" + value);
  }
  environment.push_back("HOME=" + m_home.string());
  environment.push_back("ANTHROPIC_API_KEY=sk-ant-" + m_canaries.api_key);
  environment.push_back("DATABASE_URL=postgres://app:" + m_canaries.database + "@db.example/app");
  environment.push_back("SESSION_COOKIE=" + m_canaries.cookie);
  environment.push_back("MIRROR_URL=https://mirror:" + m_canaries.mirror + "@mirror.example/simple");
  environment.push_back("GITHUB_ENV=" + (m_outside / "github_env").string());
  environment.insert(environment.end(), m_added_environment.begin(), m_added_environment.end());
  return environment;
}

TreeDigest SecurityFixture::snapshot() const {
  TreeDigest digest;
  add_digests(digest, "outside", m_outside);
  add_digests(digest, "tmp", m_tmp_outside);
  add_digests(digest, "home", m_home);
  add_digests(digest, "policies", m_root / "policies");
  add_digests(digest, "repo/.git", m_repository / ".git", is_git_index);
  return digest;
}

void SecurityFixture::check_unchanged(const TreeDigest& before, std::string_view after_what) const {
  TreeDigest now = snapshot();
  for (const auto& [path, digest] : before) {
    auto it = now.find(path);
    BOOST_TEST((it != now.end() && it->second == digest), path << " changed or vanished after " << after_what);
  }
  for (const auto& [path, digest] : now) {
    BOOST_TEST(before.count(path) == 1, path << " appeared after " << after_what);
  }
}

void SecurityFixture::check_no_secret(std::string_view text, std::string_view where) const {
  for (const auto& [what, secret] : m_canaries.secrets()) {
    BOOST_TEST(text.find(secret) == std::string_view::npos, where << " shows the secret of " << what);
  }
}

void SecurityFixture::check_no_secret_in_tree(const fs::path& folder, std::string_view where) const {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename() == ".git" && it->is_directory(ec)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) {
      check_no_secret(read_whole(it->path()), std::string(where) + " (" + it->path().string() + ")");
    }
  }
}

namespace {

/// Runs `argv` with `environment` and stdin from `input` (a file), stdout and stderr apart.
struct Finished {
  int exit_code = -1;
  std::string out;
  std::string err;
};

Finished run_with(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                  const fs::path& cwd, const fs::path& input, const fs::path& err_file) {
  std::string command = "exec";
  for (const std::string& word : argv) command += " " + shell_quote(word);
  command += " < " + shell_quote(input.string()) + " 2> " + shell_quote(err_file.string());
  ProcessSpec spec = shell_command(command, cwd, std::chrono::minutes(4));
  spec.environment = environment;
  spec.output_head_bytes = 8 << 20;
  spec.output_tail_bytes = 8 << 20;
  auto result = run_process(spec);
  BOOST_REQUIRE_MESSAGE(result.has_value(), "cannot run agent-run");
  return Finished{result->exit_code, result->output, read_whole(err_file)};
}

}  // namespace

ToolRun SecurityFixture::run_tool(const fs::path& workspace, const std::vector<std::string>& arguments,
                                  const std::vector<Json>& calls) const {
  static int counter = 0;
  std::string name = "calls-" + std::to_string(++counter);
  std::string lines;
  for (const Json& call : calls) lines += call.dump() + "\n";
  write_whole(m_root / "calls" / (name + ".jsonl"), lines);
  std::vector<std::string> argv = {test::agent_run_binary(),   "tool",        "--json",
                                   "--no-diagnostics", "--workspace", workspace.string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  Finished finished =
      run_with(argv, environment(), m_root, m_root / "calls" / (name + ".jsonl"), m_root / "calls" / (name + ".err"));
  ToolRun run;
  run.exit_code = finished.exit_code;
  run.stdout_text = finished.out;
  run.stderr_text = finished.err;
  std::istringstream out(finished.out);
  for (std::string line; std::getline(out, line);) {
    auto json = parse_json(line);
    BOOST_REQUIRE_MESSAGE(json.has_value(), "agent-run tool printed a line that is not JSON: " + line);
    ToolAnswer answer;
    answer.tool = json->get_string("tool");
    if (const Json* decision = json->find("decision")) {
      answer.verdict = decision->get_string("verdict");
      answer.decided_by = decision->get_string("decided_by");
      answer.rule_id = decision->get_string("rule_id");
      answer.reason = decision->get_string("reason");
    }
    if (const Json* result = json->find("result")) {
      answer.content = result->get_string("content");
      const Json* is_error = result->find("is_error");
      answer.is_error = is_error && is_error->is_bool() && is_error->as_bool();
    }
    answer.line = std::move(*json);
    run.answers.push_back(std::move(answer));
  }
  return run;
}

TaskRun SecurityFixture::run_task(const std::string& id, const std::string& task_yaml,
                                  const std::vector<std::string>& arguments) const {
  fs::path task = m_root / "tasks" / (id + ".yaml");
  write_whole(task, task_yaml);
  TaskRun run;
  run.out = m_root / ("out-" + id);
  std::vector<std::string> argv = {test::agent_run_binary(),  "run", task.string(), "--out", run.out.string(),
                                   "--no-diagnostics"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  write_whole(m_root / "tasks" / "empty-stdin", "");
  Finished finished =
      run_with(argv, environment(), m_root, m_root / "tasks" / "empty-stdin", m_root / "tasks" / (id + ".err"));
  run.exit_code = finished.exit_code;
  run.output = finished.out + finished.err;
  std::error_code ec;
  if (fs::exists(run.out / "report.json", ec)) {
    auto report = parse_json(read_whole(run.out / "report.json"));
    BOOST_REQUIRE_MESSAGE(report.has_value(), "report.json does not parse");
    run.report = std::move(*report);
    const Json* attempts = run.report.find("attempts");
    if (attempts && attempts->is_array() && !attempts->as_array().empty()) run.attempt = attempts->as_array().front();
  }
  if (!run.attempt.is_null()) {
    if (std::string patch = run.attempt.get_string("patch_path"); !patch.empty())
      run.patch = read_whole(run.out / patch);
    if (std::string transcript = run.attempt.get_string("transcript_path"); !transcript.empty()) {
      run.transcript = read_whole(run.out / transcript);
    }
  }
  run.junit = read_whole(run.out / "junit.xml");
  return run;
}

std::string SecurityFixture::workspace_key(std::string_view isolation) const {
  return "workspace: {repo: " + m_repository.string() + ", isolation: " + std::string(isolation) + "}\n";
}

Json bash_call(const std::string& command) {
  return Json::object().set("tool", "bash").set("input", Json::object().set("command", command));
}

Json tool_call(const std::string& tool, Json input) {
  return Json::object().set("tool", tool).set("input", std::move(input));
}

}  // namespace agent_run::test
