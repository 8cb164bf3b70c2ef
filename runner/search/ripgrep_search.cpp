#include "base/base64.h"
#include "base/json.h"
#include "base/safe_open.h"
#include "exec/own_children.h"
#include "exec/spawn.h"
#include "search/grep_search.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>

namespace agent_run {

namespace {

/// The command line that makes ripgrep walk exactly like walk_files and search like the built-in search.
std::vector<std::string> ripgrep_arguments(const std::filesystem::path& program, const GrepRequest& request,
                                           const GrepPatterns& patterns) {
  std::vector<std::string> args = {program.string(),
                                   "--no-config",
                                   "--hidden",
                                   "--no-ignore-dot",
                                   "--no-ignore-exclude",
                                   "--no-ignore-global",
                                   "--no-messages",
                                   "--sort",
                                   "path",
                                   "--encoding",
                                   "none",
                                   "--color",
                                   "never"};
  if (request.output == GrepOutput::content) {
    args.insert(args.end(), {"--json", "--before-context", std::to_string(request.before), "--after-context",
                             std::to_string(request.after)});
  } else {
    args.insert(args.end(), {request.output == GrepOutput::count ? "--count" : "--files-with-matches", "--null",
                             "--with-filename"});
  }
  if (request.case_insensitive) args.push_back("--ignore-case");
  for (const std::string& glob : request.globs) args.insert(args.end(), {"--glob", glob});
  args.insert(args.end(), {"--glob", "!.git", "--regexp", patterns.for_ripgrep});
  if (request.path != ".") args.insert(args.end(), {"--", request.path});
  return args;
}

/// Starts ripgrep in the workspace, stdout and stderr on their own pipes (exec/'s one spawner).
Expected<SpawnedProcess> spawn(const std::vector<std::string>& args, const SearchScope& scope) {
  ChildSpec spec;
  spec.argv = args;
  spec.cwd = scope.workspace;
  spec.environment = scope.environment;
  spec.output = ChildOutput::two_pipes;
  return spawn_child(spec);
}

/// The path or line text of ripgrep's JSON: {"text": ...} or, when not UTF-8, {"bytes": base64}.
std::string json_text(const Json* value) {
  if (value == nullptr) return {};
  if (const Json* text = value->find("text"); text && text->is_string()) return text->as_string();
  if (const Json* bytes = value->find("bytes"); bytes && bytes->is_string()) {
    auto decoded = base64_decode(bytes->as_string());
    if (decoded) return *decoded;
  }
  return {};
}

bool file_holds_nul(int root_fd, const std::string& path) {
  auto file = open_beneath(root_fd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (!file) return false;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(file->get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (std::memchr(buffer, '\0', static_cast<std::size_t>(n))) return true;
  }
}

/// Turns ripgrep's output, as it arrives, into GrepFiles for the sink (binary files left out).
class OutputReader {
 public:
  OutputReader(const GrepRequest& request, const GrepSink& sink, int root_fd, const HiddenPaths* hidden)
      : m_request(request), m_sink(sink), m_root_fd(root_fd), m_hidden(hidden) {}

  /// Takes the next bytes; returns stop once the sink has enough.
  WalkStep feed(std::string_view bytes) {
    m_pending.append(bytes);
    const char separator = m_request.output == GrepOutput::files_with_matches ? '\0' : '\n';
    std::size_t start = 0;
    for (std::size_t end; (end = m_pending.find(separator, start)) != std::string::npos; start = end + 1) {
      if (take(std::string_view(m_pending).substr(start, end - start)) == WalkStep::stop) return WalkStep::stop;
    }
    m_pending.erase(0, start);
    return WalkStep::go_on;
  }

 private:
  WalkStep take(std::string_view record) {
    if (m_request.output == GrepOutput::files_with_matches) return hand_on(GrepFile{std::string(record), {}, 1});
    if (m_request.output == GrepOutput::count) {
      std::size_t nul = record.rfind('\0');
      if (nul == std::string_view::npos) return WalkStep::go_on;
      std::size_t count = 0;
      std::string_view digits = record.substr(nul + 1);
      std::from_chars(digits.data(), digits.data() + digits.size(), count);
      return hand_on(GrepFile{std::string(record.substr(0, nul)), {}, count});
    }
    // rg writes {"type":"...","data":...}; the end of a file needs no parsing, the summary none at all.
    if (record.rfind("{\"type\":\"end\"", 0) == 0) return end_of_file();
    if (record.rfind("{\"type\":\"summary\"", 0) == 0) return WalkStep::go_on;
    auto event = parse_json(record);
    if (!event) return WalkStep::go_on;
    const std::string type = event->get_string("type");
    const Json* data = event->find("data");
    if (type == "begin") {
      m_file = GrepFile{json_text(data->find("path")), {}, 0};
    } else if ((type == "match" || type == "context") && m_file.match_count <= m_request.max_results) {
      std::string text = json_text(data->find("lines"));
      if (!text.empty() && text.back() == '\n') text.pop_back();
      const Json* number = data->find("line_number");
      m_file.lines.push_back(
          GrepLine{number && number->is_integer() ? number->as_int() : 0, type == "match", std::move(text)});
      if (type == "match") ++m_file.match_count;
    }
    return WalkStep::go_on;
  }

  WalkStep end_of_file() {
    // Lines after the match one beyond max_results are never shown; the built-in search stops there too.
    while (m_file.match_count > m_request.max_results && !m_file.lines.back().is_match) m_file.lines.pop_back();
    if (m_file.match_count == 0) return WalkStep::go_on;
    return hand_on(std::move(m_file));
  }

  WalkStep hand_on(GrepFile file) {
    if (is_hidden(file.path) || file_holds_nul(m_root_fd, file.path)) return WalkStep::go_on;
    return m_sink(std::move(file));
  }

  /// True when the policy hides the file ripgrep found: by its path, or by the file it is.
  bool is_hidden(const std::string& path) const {
    if (m_hidden == nullptr || !*m_hidden) return false;
    if (m_hidden->rule_of_path && !m_hidden->rule_of_path(path).empty()) return true;
    auto file = open_beneath(m_root_fd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (!file) return true;  // it cannot be looked at: nothing of it is handed on
    return !m_hidden->rule_of(path, -1, "", file->get()).empty();
  }

  const GrepRequest& m_request;
  const GrepSink& m_sink;
  int m_root_fd;
  const HiddenPaths* m_hidden;
  std::string m_pending;
  GrepFile m_file;
};

/// Reads both pipes until ripgrep closes them, the reader has enough, or the deadline passes.
Expected<std::string> pump(SpawnedProcess& child, OutputReader& reader, std::chrono::steady_clock::time_point deadline) {
  std::string errors;
  char buffer[65536];
  while (child.output.is_open() || child.errors.is_open()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return make_error("the search timed out");
    pollfd fds[2] = {{child.output.get(), POLLIN, 0}, {child.errors.get(), POLLIN, 0}};
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) return make_error(std::strerror(errno));
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      Fd& fd = i == 0 ? child.output : child.errors;
      if (n <= 0) {
        fd.reset();
      } else if (i == 1) {
        errors.append(buffer, static_cast<std::size_t>(std::min<ssize_t>(n, 4096)));
      } else if (reader.feed(std::string_view(buffer, static_cast<std::size_t>(n))) == WalkStep::stop) {
        return errors;
      }
    }
  }
  return errors;
}

}  // namespace

Expected<void> search_with_ripgrep(const std::filesystem::path& program, const SearchScope& scope,
                                   const GrepRequest& request, const GrepPatterns& patterns, const GrepSink& sink) {
  auto root = open_workspace(scope.workspace);
  if (!root) return root.error();
  auto child = spawn(ripgrep_arguments(program, request, patterns), scope);
  if (!child) return child.error();
  OutputReader reader(request, sink, root->get(), scope.hidden);
  auto errors = pump(*child, reader, scope.deadline);
  ::kill(-child->pid, SIGKILL);  // it may still be running when the reader had enough or time ran out
  int status = 0;
  ::waitpid(child->pid, &status, 0);
  forget_own_child(child->pid);
  if (!errors) return errors.error();
  const bool killed = WIFSIGNALED(status);
  const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (!killed && exit_code == 2 && !errors->empty()) return make_error("ripgrep: " + *errors);
  return {};
}

}  // namespace agent_run
