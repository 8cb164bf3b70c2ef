#include "support/waiting.h"

#include "base/files.h"

#include <thread>

namespace agent_run::test {

bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds patience) {
  const auto give_up = std::chrono::steady_clock::now() + patience;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= give_up) return condition();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

std::string wait_for_line_in(const std::filesystem::path& file, std::chrono::milliseconds patience) {
  std::string content;
  wait_until(
      [&] {
        auto text = read_file(file);
        content = text ? *text : std::string();
        return content.ends_with("\n");
      },
      patience);
  return content.ends_with("\n") ? content : std::string();
}

}  // namespace agent_run::test
