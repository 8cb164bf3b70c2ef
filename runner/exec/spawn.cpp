#include "exec/spawn.h"

#include "exec/own_children.h"

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace agent_run {

namespace {

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const std::string& s : strings) pointers.push_back(const_cast<char*>(s.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

/// The spawn attributes: a new session, an empty signal mask, every signal at its default action.
void init_attributes(posix_spawnattr_t& attributes) {
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
}

/// A pipe, both ends close-on-exec: `read` for the runner or the child, `write` for the other.
struct Pipe {
  Fd read;
  Fd write;
};

Expected<Pipe> make_pipe(const std::string& program) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    return make_error("cannot run '" + program + "': cannot make a pipe: " + std::strerror(errno));
  }
  return Pipe{Fd(ends[0]), Fd(ends[1])};
}

void set_non_blocking(const Fd& fd) {
  if (fd.is_open()) ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) | O_NONBLOCK);
}

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

/// The program `spec` runs, found in the PATH of its environment (the runner's when it has none).
Expected<std::filesystem::path> program_of(const ChildSpec& spec) {
  const std::string& name = spec.argv.front();
  std::vector<std::string> runner_path;
  if (!spec.environment) {
    if (const char* path = std::getenv("PATH")) runner_path.push_back(std::string("PATH=") + path);
  }
  if (auto found = find_program(name, spec.environment ? *spec.environment : runner_path)) return *found;
  if (name.find('/') == std::string::npos) return make_error("cannot run '" + name + "': not found on PATH");
  std::error_code ec;
  const bool exists = std::filesystem::exists(name, ec);
  return make_error("cannot run '" + name + "': " + std::strerror(exists ? EACCES : ENOENT));
}

}  // namespace

void Fd::reset() {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
}

std::optional<std::string> environment_value(const std::vector<std::string>& environment, std::string_view name) {
  for (const std::string& entry : environment) {
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> find_program(std::string_view program,
                                                  const std::vector<std::string>& environment) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string_view::npos) {
    if (is_executable_file(std::filesystem::path(program))) return std::filesystem::path(program);
    return std::nullopt;
  }
  std::string path = environment_value(environment, "PATH").value_or("/usr/local/bin:/usr/bin:/bin");
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::filesystem::path folder = path.substr(start, end - start);
    if (folder.empty()) folder = ".";
    std::filesystem::path candidate = folder / std::string(program);
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

ChildSpec child_spec_of(const ProcessSpec& spec) {
  ChildSpec child;
  child.argv = spec.argv;
  child.cwd = spec.cwd;
  child.environment = spec.environment;
  return child;
}

Expected<SpawnedProcess> spawn_child(const ChildSpec& spec) {
  if (spec.argv.empty() || spec.argv.front().empty()) return make_error("cannot run an empty command");
  const std::string& name = spec.argv.front();
  std::error_code ec;
  if (!spec.cwd.empty() && !std::filesystem::is_directory(spec.cwd, ec)) {
    return make_error("cannot run '" + name + "' in '" + spec.cwd.string() + "': no such folder");
  }
  auto program = program_of(spec);
  if (!program) return program.error();
  auto output = make_pipe(name);
  if (!output) return output.error();
  Expected<Pipe> errors = Pipe{};
  if (spec.output == ChildOutput::two_pipes) errors = make_pipe(name);
  if (!errors) return errors.error();
  Expected<Pipe> input = Pipe{};
  if (spec.input == ChildInput::pipe) input = make_pipe(name);
  if (!input) return input.error();

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (input->read.is_open()) {
    posix_spawn_file_actions_adddup2(&actions, input->read.get(), 0);  // dup2 clears FD_CLOEXEC
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, output->write.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, errors->write.is_open() ? errors->write.get() : output->write.get(), 2);
  // What the runner inherited without close-on-exec (a folder its parent opened, a socket) must not
  // reach the child: through /proc/self/fd it would open files beneath every mask of the sandbox.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  posix_spawnattr_t attributes;
  init_attributes(attributes);

  const std::string path = program->string();
  std::vector<char*> argv = c_strings(spec.argv);
  std::vector<char*> envp = spec.environment ? c_strings(*spec.environment) : std::vector<char*>{};
  int rc = 0;
  pid_t pid = spawn_own_child([&] {
    pid_t spawned = -1;
    rc = ::posix_spawn(&spawned, path.c_str(), &actions, &attributes, argv.data(),
                       spec.environment ? envp.data() : environ);
    return rc == 0 ? spawned : -1;
  });
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) return make_error("cannot run '" + name + "': " + std::strerror(rc));

  SpawnedProcess spawned{pid, std::move(output->read), std::move(errors->read), std::move(input->write)};
  set_non_blocking(spawned.output);
  set_non_blocking(spawned.errors);
  set_non_blocking(spawned.input);
  return spawned;
}

}  // namespace agent_run
