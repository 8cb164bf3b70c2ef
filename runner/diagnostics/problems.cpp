#include "diagnostics/problems.h"

#include "base/text.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace agent_run {

namespace {

constexpr std::size_t k_max_message_bytes = 300;

/// The byte column (1-based) of UTF-16 offset `offset` in `line`.
int byte_column(std::string_view line, std::int64_t offset) {
  std::size_t at = 0;
  std::int64_t units = 0;
  while (at < line.size() && units < offset) {
    unsigned char c = static_cast<unsigned char>(line[at]);
    int length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    units += length == 4 ? 2 : 1;
    at += static_cast<std::size_t>(length);
  }
  return static_cast<int>(std::min(at, line.size())) + 1;
}

std::string_view nth_line(std::string_view text, std::int64_t index) {
  for (std::int64_t i = 0; i < index; ++i) {
    std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) return {};
    text.remove_prefix(newline + 1);
  }
  return text.substr(0, text.find('\n'));
}

std::string clean_message(std::string message) {
  for (std::size_t at = message.find("\xC2\xA0"); at != std::string::npos; at = message.find("\xC2\xA0", at)) {
    message.replace(at, 2, " ");
  }
  std::vector<std::string> lines;
  for (const std::string& line : split(message, '\n')) {
    std::string_view kept = trim(line);
    if (!kept.empty()) lines.emplace_back(kept);
  }
  message = join(lines, "\n");
  if (message.size() > k_max_message_bytes) {
    std::size_t cut = k_max_message_bytes;
    while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xC0) == 0x80) --cut;
    message = message.substr(0, cut) + "...";
  }
  return repair_utf8(message);
}

}  // namespace

std::optional<Problem> problem_from_lsp(const Json& diagnostic, const std::string& path,
                                        const std::optional<std::string>& text, bool other_file) {
  const Json* severity = diagnostic.find("severity");
  std::int64_t level = severity && severity->is_integer() ? severity->as_int() : 1;
  if (level != 1 && level != 2) return std::nullopt;
  Problem problem;
  problem.path = path;
  problem.severity = level == 1 ? "error" : "warning";
  problem.other_file = other_file;
  const Json* start = diagnostic.find("range") ? diagnostic.find("range")->find("start") : nullptr;
  const Json* line = start ? start->find("line") : nullptr;
  const Json* character = start ? start->find("character") : nullptr;
  std::int64_t line_index = line && line->is_integer() ? line->as_int() : 0;
  std::int64_t offset = character && character->is_integer() ? character->as_int() : 0;
  problem.line = static_cast<int>(line_index) + 1;
  problem.column = text ? byte_column(nth_line(*text, line_index), offset) : static_cast<int>(offset) + 1;
  problem.message = clean_message(diagnostic.get_string("message"));
  if (const Json* code = diagnostic.find("code"); code && (code->is_string() || code->is_integer())) {
    problem.code = code->is_string() ? code->as_string() : std::to_string(code->as_int());
  } else {
    problem.code = diagnostic.get_string("source");
  }
  return problem;
}

std::string workspace_relative(const std::filesystem::path& path, const std::filesystem::path& workspace) {
  std::filesystem::path relative = path.lexically_normal().lexically_relative(workspace.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") return path.string();
  return relative.string();
}

std::string problem_key(const Problem& problem) {
  return problem.path + '\0' + problem.severity + '\0' + problem.code + '\0' + problem.message;
}

std::vector<Problem> problems_not_in(const std::vector<Problem>& after, const std::vector<Problem>& before) {
  std::map<std::string, int> available;
  for (const Problem& problem : before) ++available[problem_key(problem)];
  std::vector<Problem> missing;
  for (const Problem& problem : after) {
    int& count = available[problem_key(problem)];
    if (count > 0) {
      --count;
    } else {
      missing.push_back(problem);
    }
  }
  return missing;
}

void sort_problems(std::vector<Problem>& problems) {
  std::stable_sort(problems.begin(), problems.end(), [](const Problem& a, const Problem& b) {
    auto rank = [](const Problem& p) {
      return std::tuple(p.severity != "error", p.other_file, p.path, p.line, p.column);
    };
    return rank(a) < rank(b);
  });
}

}  // namespace agent_run
