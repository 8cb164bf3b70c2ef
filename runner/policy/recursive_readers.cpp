#include "policy/recursive_readers.h"

#include "policy/command_views.h"

#include <algorithm>
#include <array>

namespace agent_run {

namespace {

bool is_option(const std::string& word) { return word.size() > 1 && word[0] == '-'; }

bool has_any(const std::vector<std::string>& argv, std::initializer_list<std::string_view> words) {
  return std::any_of(argv.begin() + 1, argv.end(), [&](const std::string& word) {
    return std::find(words.begin(), words.end(), word.substr(0, word.find('='))) != words.end();
  });
}

/// True when a short option cluster (`-rn`) holds one of `letters`.
bool has_short(const std::vector<std::string>& argv, std::string_view letters) {
  return std::any_of(argv.begin() + 1, argv.end(), [&](const std::string& word) {
    return word.size() > 1 && word[0] == '-' && word[1] != '-' && word.find_first_of(letters, 1) != std::string::npos;
  });
}

/// The non-option words after the program (and `skip` more words: a subcommand, a pattern).
std::vector<std::string> operands(const std::vector<std::string>& argv, std::size_t first, bool skip_pattern) {
  std::vector<std::string> found;
  bool options_done = false;
  for (std::size_t i = first; i < argv.size(); ++i) {
    if (!options_done && argv[i] == "--") {
      options_done = true;
      continue;
    }
    if (!options_done && is_option(argv[i])) continue;
    found.push_back(argv[i]);
  }
  if (skip_pattern && !found.empty()) found.erase(found.begin());
  if (found.empty()) found.push_back(".");
  return found;
}

/// grep's pattern is its first operand unless -e, -f, --regexp or --file gave it.
bool pattern_is_an_operand(const std::vector<std::string>& argv) {
  return !has_any(argv, {"-e", "-f", "--regexp", "--file"}) && !has_short(argv, "ef");
}

RecursiveRead grep_like(const std::vector<std::string>& argv, const std::string& program) {
  const bool always = program == "rgrep" || program == "rg" || program == "ag" || program == "ack";
  const bool recursive = always || has_short(argv, "rR") || has_any(argv, {"--recursive", "--dereference-recursive"}) ||
                         std::find(argv.begin(), argv.end(), "--directories=recurse") != argv.end() ||
                         std::adjacent_find(argv.begin(), argv.end(), [](const std::string& a, const std::string& b) {
                           return a == "-d" && b == "recurse";
                         }) != argv.end();
  if (!recursive) return {};
  return RecursiveRead{always ? program : program + " -r", operands(argv, 1, pattern_is_an_operand(argv))};
}

RecursiveRead find_with_action(const std::vector<std::string>& argv) {
  static constexpr std::array<std::string_view, 9> k_actions = {"-exec",    "-execdir", "-ok",  "-okdir", "-fprint",
                                                                "-fprint0", "-fprintf", "-fls", "-delete"};
  const bool acts = std::any_of(argv.begin() + 1, argv.end(), [](const std::string& word) {
    return std::find(k_actions.begin(), k_actions.end(), word) != k_actions.end();
  });
  if (!acts) return {};
  std::vector<std::string> roots;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word[0] == '-' || word == "(" || word == "!" || word == ")") break;
    roots.push_back(word);
  }
  if (roots.empty()) roots.push_back(".");
  return RecursiveRead{"find -exec", roots};
}

RecursiveRead git_reader(const std::vector<std::string>& argv) {
  std::size_t sub = 1;
  while (sub < argv.size() && is_option(argv[sub])) ++sub;
  if (sub >= argv.size()) return {};
  if (argv[sub] == "grep") return RecursiveRead{"git grep", operands(argv, sub + 1, pattern_is_an_operand(argv))};
  if (argv[sub] == "diff" && has_any(argv, {"--no-index"})) {
    return RecursiveRead{"git diff --no-index", operands(argv, sub + 1, false)};
  }
  return {};
}

/// cp, rsync: every operand but the last (the destination) is read.
RecursiveRead copier(const std::vector<std::string>& argv, const std::string& program) {
  std::vector<std::string> found = operands(argv, 1, false);
  if (found.size() > 1) found.pop_back();
  return RecursiveRead{program, found};
}

}  // namespace

RecursiveRead recursive_read(const std::vector<std::string>& argv) {
  if (argv.empty()) return {};
  const std::string program(program_name(argv[0]));
  if (program == "grep" || program == "egrep" || program == "fgrep" || program == "rgrep" || program == "rg" ||
      program == "ag" || program == "ack") {
    return grep_like(argv, program);
  }
  if (program == "diff" && (has_short(argv, "r") || has_any(argv, {"--recursive"}))) {
    return RecursiveRead{"diff -r", operands(argv, 1, false)};
  }
  if (program == "find") return find_with_action(argv);
  if (program == "git") return git_reader(argv);
  if (program == "tar" && argv.size() > 1 &&
      ((argv[1][0] != '-' && argv[1].find('c') != std::string::npos) || has_short(argv, "c") ||
       has_any(argv, {"--create"}))) {
    return RecursiveRead{"tar c", operands(argv, 1, false)};
  }
  if (program == "zip" && (has_short(argv, "rR") || has_any(argv, {"--recurse-paths"}))) {
    return RecursiveRead{"zip -r", operands(argv, 1, false)};
  }
  if (program == "cp" && (has_short(argv, "rRa") || has_any(argv, {"--recursive", "--archive"}))) {
    return copier(argv, "cp -r");
  }
  if (program == "rsync") return copier(argv, "rsync");
  return {};
}

}  // namespace agent_run
