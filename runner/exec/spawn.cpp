#include "exec/spawn.h"

#include "exec/own_children.h"

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
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

}  // namespace

void Fd::reset() {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
}

Expected<SpawnedProcess> spawn_in_new_session(const ProcessSpec& spec) {
  if (spec.argv.empty() || spec.argv.front().empty()) return make_error("cannot run an empty command");
  const std::string& program = spec.argv.front();
  std::error_code ec;
  if (!spec.cwd.empty() && !std::filesystem::is_directory(spec.cwd, ec)) {
    return make_error("cannot run '" + program + "' in '" + spec.cwd.string() + "': no such folder");
  }
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    return make_error("cannot run '" + program + "': cannot make a pipe: " + std::strerror(errno));
  }
  Fd read_end(ends[0]);
  Fd write_end(ends[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), 1);  // dup2 clears FD_CLOEXEC
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), 2);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  posix_spawnattr_t attributes;
  init_attributes(attributes);

  std::vector<char*> argv = c_strings(spec.argv);
  std::vector<char*> envp = spec.environment ? c_strings(*spec.environment) : std::vector<char*>{};
  int rc = 0;
  pid_t pid = spawn_own_child([&] {
    pid_t spawned = -1;
    rc =
        ::posix_spawnp(&spawned, argv[0], &actions, &attributes, argv.data(), spec.environment ? envp.data() : environ);
    return rc == 0 ? spawned : -1;
  });
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) return make_error("cannot run '" + program + "': " + std::strerror(rc));

  ::fcntl(read_end.get(), F_SETFL, ::fcntl(read_end.get(), F_GETFL) | O_NONBLOCK);
  return SpawnedProcess{pid, std::move(read_end)};
}

}  // namespace agent_run
