#include "app/cli_options.h"

#include "base/text.h"

#include <charconv>
#include <functional>

namespace agent_run {

namespace {

/// One command-line option: its name, its value (if it takes one), its help, and what it sets.
struct OptionSpec {
  const char* name;
  const char* value_name;  // nullptr: a flag without a value
  const char* help;
  std::function<Expected<void>(CliOptions&, const std::string&)> apply;
};

Expected<int> positive_integer(const std::string& option, const std::string& text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1) {
    return make_error(option + " needs a whole number of at least 1, got '" + text + "'");
  }
  return value;
}

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> k_options = {
      {"--policy", "FILE", "approval policy for every task (overrides the tasks' own)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.policy = v; return {}; }},
      {"--model", "PROVIDER/NAME", "model for every task (repeatable: each task runs with each model)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.models.push_back(v); return {}; }},
      {"--out", "DIR", "report folder (default: agent-run-out)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.out = v; return {}; }},
      {"--repeat", "K", "attempts per task and model (overrides the tasks' repeat)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto k = positive_integer("--repeat", v);
         if (!k) return k.error();
         o.repeat = *k;
         return {};
       }},
      {"--keep-workspaces", nullptr, "keep each attempt's workspace instead of removing it",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.keep_workspaces = true; return {}; }},
      {"--no-diagnostics", nullptr, "no per-edit diagnostics (language servers and linters) in this run",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.no_diagnostics = true; return {}; }},
      {"--help", nullptr, "show this help",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.command = Command::help; return {}; }},
      {"--version", nullptr, "show the version",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.command = Command::version; return {}; }},
  };
  return k_options;
}

const OptionSpec* find_option(const std::string& name) {
  for (const OptionSpec& option : option_table()) {
    if (name == option.name) return &option;
  }
  return nullptr;
}

Expected<void> apply_option(CliOptions& options, const std::vector<std::string>& arguments, std::size_t& i) {
  std::string name = arguments[i];
  std::string value;
  bool has_inline_value = false;
  if (auto equals = name.find('='); equals != std::string::npos) {
    value = name.substr(equals + 1);
    name = name.substr(0, equals);
    has_inline_value = true;
  }
  const OptionSpec* option = find_option(name);
  if (option == nullptr) {
    std::vector<std::string> names;
    for (const OptionSpec& known : option_table()) names.push_back(known.name);
    auto suggestion = closest_match(name, names);
    return make_error("unknown option '" + name + "'" + (suggestion ? " (did you mean '" + *suggestion + "'?)" : ""));
  }
  if (option->value_name && !has_inline_value) {
    if (i + 1 >= arguments.size()) return make_error(name + " needs a value (" + option->value_name + ")");
    value = arguments[++i];
  } else if (!option->value_name && has_inline_value) {
    return make_error(name + " takes no value");
  }
  return option->apply(options, value);
}

}  // namespace

Expected<CliOptions> parse_cli(const std::vector<std::string>& arguments) {
  CliOptions options;
  std::size_t first = 0;
  if (!arguments.empty() && (arguments[0] == "run" || arguments[0] == "validate")) {
    options.command = arguments[0] == "run" ? Command::run : Command::validate;
    first = 1;
  }
  for (std::size_t i = first; i < arguments.size(); ++i) {
    if (arguments[i].size() > 1 && arguments[i][0] == '-') {
      AR_TRY(apply_option(options, arguments, i));
    } else {
      options.files.push_back(arguments[i]);
    }
  }
  if (options.command == Command::help || options.command == Command::version) {
    return options;
  }
  if (options.files.empty()) {
    return make_error(options.command == Command::validate ? "validate needs at least one file"
                                                           : "no task files given (try: agent-run tasks/*.yaml)");
  }
  return options;
}

std::string usage_text() {
  std::string text =
      "usage: agent-run [run] TASK.yaml... [options]\n"
      "       agent-run validate FILE...     check task and policy files; nothing runs\n\n"
      "options:\n";
  for (const OptionSpec& option : option_table()) {
    std::string left = std::string("  ") + option.name + (option.value_name ? std::string(" ") + option.value_name : "");
    left.resize(std::max<std::size_t>(left.size() + 2, 30), ' ');
    text += left + option.help + "\n";
  }
  text +=
      "\nexit codes: 0 every attempt passed; 1 at least one failed; 2 invalid invocation or file, nothing ran;\n"
      "            3 none failed but at least one could not be judged\n";
  return text;
}

}  // namespace agent_run
