#include "policy/kernel_path.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <deque>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

constexpr int k_max_links = 40;

std::deque<std::string> components(std::string_view text) {
  std::deque<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('/', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) parts.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// The magic name `path` is, if it is one: a process's own entry in /proc or a descriptor link.
std::string magic_name(const fs::path& path) {
  const std::string text = path.generic_string();
  if (text.rfind("/proc/", 0) == 0) {
    std::string_view name = std::string_view(text).substr(6);
    if (name == "self" || name == "thread-self" || all_digits(name)) return text;
  }
  static constexpr std::array<std::string_view, 4> k_devices = {"/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr"};
  if (std::find(k_devices.begin(), k_devices.end(), text) != k_devices.end()) return text;
  return {};
}

std::string link_text(const fs::path& path) {
  std::string buffer(4096, '\0');
  ssize_t n = ::readlink(path.c_str(), buffer.data(), buffer.size());
  if (n < 0) return {};
  buffer.resize(static_cast<std::size_t>(n));
  return buffer;
}

/// `current` with the rest of the components applied as written, `..` lexically.
fs::path lexical_rest(fs::path current, std::deque<std::string>& rest) {
  for (const std::string& part : rest) {
    if (part == ".") continue;
    current = part == ".." ? current.parent_path() : current / part;
  }
  return current.lexically_normal();
}

}  // namespace

KernelPath kernel_resolve(const fs::path& base, std::string_view text) {
  const bool absolute = !text.empty() && text[0] == '/';
  fs::path current = absolute ? fs::path("/") : base.lexically_normal();
  std::deque<std::string> rest = components(text);
  int links = 0;
  while (!rest.empty()) {
    std::string part = std::move(rest.front());
    rest.pop_front();
    if (part == ".") continue;
    if (part == "..") {
      current = current.parent_path();
      continue;
    }
    fs::path candidate = current / part;
    if (std::string magic = magic_name(candidate); !magic.empty()) {
      return KernelPath{lexical_rest(candidate, rest), magic};
    }
    struct stat info {};
    if (::lstat(candidate.c_str(), &info) != 0) {
      rest.push_front(part);
      fs::path resolved = lexical_rest(current, rest);
      return KernelPath{resolved, magic_prefix(resolved)};
    }
    if (!S_ISLNK(info.st_mode)) {
      current = std::move(candidate);
      continue;
    }
    std::string target = link_text(candidate);
    if (++links > k_max_links || target.empty()) {  // the kernel says ELOOP; what it names is the text as written
      rest.push_front(part);
      fs::path resolved = lexical_rest(current, rest);
      return KernelPath{resolved, magic_prefix(resolved)};
    }
    std::deque<std::string> spliced = components(target);
    rest.insert(rest.begin(), spliced.begin(), spliced.end());
    if (target[0] == '/') current = "/";
  }
  return KernelPath{current.empty() ? fs::path("/") : current, ""};
}

std::string magic_prefix(const fs::path& path) {
  fs::path prefix;
  for (const fs::path& part : path) {
    prefix /= part;
    if (std::string magic = magic_name(prefix); !magic.empty()) return magic;
  }
  return {};
}

}  // namespace agent_run
