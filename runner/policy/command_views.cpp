#include "policy/command_views.h"

#include "policy/shell_parts.h"

#include <algorithm>
#include <array>
#include <optional>

namespace agent_run {

namespace {

constexpr int k_max_depth = 8;
constexpr std::size_t k_max_views = 256;

/// How a wrapper finds the command it runs after its own options.
enum class WrapperKind {
  plain,  // the remaining words are the command
  shell,  // sh -c SCRIPT: the first operand is a script when -c was given
  watch,  // the remaining words are joined with spaces and run by sh -c (unless -x)
  find,   // the words after -exec/-execdir/-ok/-okdir up to ';' or '+'
};

/// One program known to run another: which of its options take a value, how many operands come
/// before the command, and which option's value is itself a script.
struct WrapperSpec {
  std::string_view name;
  std::string_view short_values;  // one-letter options that take a value
  std::string_view long_values;   // long options that take a value, space-separated
  int operands;                   // words before the command (timeout's duration, chroot's folder)
  bool assignments;               // NAME=value words may precede the command
  char script_short;              // option whose value is a script (env -S, su -c), or 0
  std::string_view script_long;
  WrapperKind kind;
};

constexpr std::array<WrapperSpec, 30> k_wrappers = {{
    {"env", "uCS", "--unset --chdir --split-string", 0, true, 'S', "--split-string", WrapperKind::plain},
    {"sudo", "ugChpDrtTUR", "--user --group --close-from --host --prompt --chdir --role --type --other-user --chroot",
     0, true, 0, "", WrapperKind::plain},
    {"doas", "uC", "", 0, false, 0, "", WrapperKind::plain},
    {"timeout", "sk", "--signal --kill-after", 1, false, 0, "", WrapperKind::plain},
    {"nice", "n", "--adjustment", 0, false, 0, "", WrapperKind::plain},
    {"ionice", "cnpPu", "--class --classdata --pid --pgid --uid", 0, false, 0, "", WrapperKind::plain},
    {"nohup", "", "", 0, false, 0, "", WrapperKind::plain},
    {"setsid", "", "", 0, false, 0, "", WrapperKind::plain},
    {"stdbuf", "ioe", "--input --output --error", 0, false, 0, "", WrapperKind::plain},
    {"chrt", "TPD", "--sched-runtime --sched-period --sched-deadline", 1, false, 0, "", WrapperKind::plain},
    {"taskset", "", "", 1, false, 0, "", WrapperKind::plain},
    {"flock", "wEc", "--wait --timeout --conflict-exit-code --command", 1, false, 'c', "--command", WrapperKind::plain},
    {"chroot", "", "--userspec --groups", 1, false, 0, "", WrapperKind::plain},
    {"unshare", "", "", 0, false, 0, "", WrapperKind::plain},
    {"nsenter", "tSG", "--target --setuid --setgid", 0, false, 0, "", WrapperKind::plain},
    {"time", "fo", "--format --output", 0, false, 0, "", WrapperKind::plain},
    {"xargs", "adEILnPs", "--arg-file --delimiter --max-args --max-procs --max-chars --max-lines --process-slot-var", 0,
     false, 0, "", WrapperKind::plain},
    {"busybox", "", "", 0, false, 0, "", WrapperKind::plain},
    {"exec", "a", "", 0, false, 0, "", WrapperKind::plain},  // builtins that run their words as a command
    {"command", "", "", 0, false, 0, "", WrapperKind::plain},
    {"builtin", "", "", 0, false, 0, "", WrapperKind::plain},
    {"su", "cgGsw", "--command --group --supp-group --shell --whitelist-environment", 0, false, 'c', "--command",
     WrapperKind::plain},
    {"runuser", "cgGsuw", "--command --group --supp-group --shell --user", 0, false, 'c', "--command",
     WrapperKind::plain},
    {"watch", "nd", "--interval", 0, false, 0, "", WrapperKind::watch},
    {"find", "", "", 0, false, 0, "", WrapperKind::find},
    {"sh", "oO", "--rcfile --init-file", 0, false, 0, "", WrapperKind::shell},
    {"bash", "oO", "--rcfile --init-file", 0, false, 0, "", WrapperKind::shell},
    {"dash", "oO", "", 0, false, 0, "", WrapperKind::shell},
    {"zsh", "oO", "", 0, false, 0, "", WrapperKind::shell},
    {"ksh", "oO", "", 0, false, 0, "", WrapperKind::shell},
}};

const WrapperSpec* find_wrapper(std::string_view program) {
  if (program == "mksh" || program == "ash") program = "sh";
  for (const WrapperSpec& spec : k_wrappers) {
    if (spec.name == program) return &spec;
  }
  return nullptr;
}

bool has_word(std::string_view words, std::string_view word) {
  std::size_t start = 0;
  while (start < words.size()) {
    std::size_t end = words.find(' ', start);
    if (end == std::string_view::npos) end = words.size();
    if (words.substr(start, end - start) == word) return true;
    start = end + 1;
  }
  return false;
}

bool is_assignment_word(std::string_view word) {
  std::size_t equals = word.find('=');
  if (equals == 0 || equals == std::string_view::npos) return false;
  return std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(equals), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

/// Where a wrapper's options end: skips them (and their values) from `i`, noting a script
/// option's value and whether a shell saw -c.
struct OptionScan {
  std::size_t next = 1;
  std::optional<std::string> script;
  bool shell_c = false;
};

OptionScan skip_options(const std::vector<std::string>& argv, const WrapperSpec& spec) {
  OptionScan scan;
  std::size_t& i = scan.next;
  while (i < argv.size()) {
    const std::string& word = argv[i];
    if (word == "--") {
      ++i;
      break;
    }
    // env -, su -: a login environment
    if (word == "-" && spec.kind == WrapperKind::plain) {
      ++i;
      continue;
    }
    if (word.size() < 2 || (word[0] != '-' && !(spec.kind == WrapperKind::shell && word[0] == '+'))) break;
    if (word[1] == '-') {
      std::size_t equals = word.find('=');
      std::string_view name = std::string_view(word).substr(0, equals);
      bool takes_value = has_word(spec.long_values, name);
      std::optional<std::string> value;
      if (equals != std::string::npos) value = word.substr(equals + 1);
      else if (takes_value && i + 1 < argv.size()) value = argv[++i];
      if (value && !spec.script_long.empty() && name == spec.script_long) scan.script = value;
      ++i;
      continue;
    }
    for (std::size_t k = 1; k < word.size(); ++k) {
      if (spec.kind == WrapperKind::shell && word[k] == 'c') scan.shell_c = true;
      if (spec.short_values.find(word[k]) == std::string_view::npos) continue;
      std::string value = k + 1 < word.size() ? word.substr(k + 1) : (i + 1 < argv.size() ? argv[++i] : "");
      if (spec.script_short == word[k]) scan.script = value;
      break;
    }
    ++i;
  }
  return scan;
}

/// su and runuser take -c after the user name too (`su root -c CMD`).
std::optional<std::string> late_command_option(const std::vector<std::string>& argv) {
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word.rfind("--command=", 0) == 0) return word.substr(10);
    bool short_c = word.size() > 1 && word[0] == '-' && word[1] != '-' && word.find('c') != std::string::npos;
    if ((short_c || word == "--command") && i + 1 < argv.size()) return argv[i + 1];
  }
  return std::nullopt;
}

/// Collects the views of one argv and of everything it wraps, depth first.
class ViewCollector {
 public:
  ViewCollector(CommandViews& views, ScriptReading reading) : m_views(views), m_reading(reading) {}

  void add(const std::vector<std::string>& argv, int depth) {
    if (argv.empty() || !m_views.problem.empty()) return;
    if (depth > k_max_depth || m_views.argvs.size() >= k_max_views) {
      m_views.problem = "wrappers nested too deeply to check";
      return;
    }
    m_views.argvs.push_back(argv);
    const WrapperSpec* spec = find_wrapper(program_name(argv[0]));
    if (spec == nullptr) return;
    if (spec->kind == WrapperKind::find) return add_find_commands(argv, depth);
    OptionScan scan = skip_options(argv, *spec);
    if (!scan.script && (spec->name == "su" || spec->name == "runuser")) scan.script = late_command_option(argv);
    if (scan.script) add_script(*scan.script, depth, spec->name);
    std::size_t i = scan.next;
    if (spec->kind == WrapperKind::shell) {
      if (scan.shell_c && i < argv.size()) add_script(argv[i], depth, spec->name);
      return;  // without -c a shell runs a file or its input: nothing more to see here
    }
    while (spec->assignments && i < argv.size() && is_assignment_word(argv[i])) ++i;
    i += static_cast<std::size_t>(spec->operands);
    if (i >= argv.size()) return;
    std::vector<std::string> rest(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
    if (spec->kind == WrapperKind::watch) {
      std::string joined;
      for (const std::string& word : rest) joined += (joined.empty() ? "" : " ") + word;
      add_script(joined, depth, spec->name);
    }
    add(rest, depth + 1);
  }

 private:
  void add_script(const std::string& script, int depth, std::string_view wrapper) {
    if (m_reading == ScriptReading::parts) return add_script_parts(script, depth, wrapper);
    ShellParse parse = parse_shell(script);
    if (!parse.understood()) {
      m_views.problem = "the script run by " + std::string(wrapper) + " is not understood: " + parse.problem;
      return;
    }
    for (const SimpleCommand& command : parse.commands) {
      m_views.redirects.insert(m_views.redirects.end(), command.redirects.begin(), command.redirects.end());
      add(command.argv, depth + 1);
    }
  }

  void add_script_parts(const std::string& script, int depth, std::string_view wrapper) {
    ShellParts parts = shell_parts(script);
    if (!parts.complete) {
      m_views.problem = "the script run by " + std::string(wrapper) + " is nested too deeply to check";
      return;
    }
    for (const SimpleCommand& command : parts.commands) {
      m_views.redirects.insert(m_views.redirects.end(), command.redirects.begin(), command.redirects.end());
      m_views.assignments.insert(m_views.assignments.end(), command.assignments.begin(), command.assignments.end());
      add(command.argv, depth + 1);
    }
  }

  void add_find_commands(const std::vector<std::string>& argv, int depth) {
    for (std::size_t i = 1; i < argv.size(); ++i) {
      if (argv[i] != "-exec" && argv[i] != "-execdir" && argv[i] != "-ok" && argv[i] != "-okdir") continue;
      std::vector<std::string> command;
      for (++i; i < argv.size() && argv[i] != ";" && argv[i] != "+"; ++i) command.push_back(argv[i]);
      add(command, depth + 1);
    }
  }

  CommandViews& m_views;
  ScriptReading m_reading;
};

}  // namespace

std::string_view program_name(std::string_view argv0) {
  std::size_t slash = argv0.rfind('/');
  return slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
}

CommandViews command_views(const SimpleCommand& command, ScriptReading reading) {
  CommandViews views;
  views.redirects = command.redirects;
  views.assignments = command.assignments;
  views.folder = command.folder;
  ViewCollector(views, reading).add(command.argv, 0);
  if (!views.problem.empty()) views.argvs.clear();
  return views;
}

}  // namespace agent_run
