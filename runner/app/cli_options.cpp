#include "app/cli_options.h"

#include "base/duration.h"
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

/// `I/N` with 1 <= I <= N.
Expected<ShardRecord> shard_of_text(const std::string& text) {
  Error problem = make_error("--shard needs I/N with 1 <= I <= N (for example 2/4), got '" + text + "'");
  std::size_t slash = text.find('/');
  if (slash == std::string::npos) return problem;
  auto index = positive_integer("--shard", text.substr(0, slash));
  auto total = positive_integer("--shard", text.substr(slash + 1));
  if (!index || !total || *index > *total) return problem;
  return ShardRecord{*index, *total};
}

Expected<int> whole_number(const std::string& option, const std::string& text, int minimum) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < minimum) {
    return make_error(option + " needs a whole number of at least " + std::to_string(minimum) + ", got '" + text + "'");
  }
  return value;
}

Expected<double> temperature_value(const std::string& text) {
  double value = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0 || value > 2) {
    return make_error("--temperature needs a number from 0 to 2, got '" + text + "'");
  }
  return value;
}

/// A percentage for compare's thresholds: `10` or `10%` is 0.10.
Expected<double> percentage(const std::string& option, const std::string& text) {
  std::string number = text.ends_with('%') ? text.substr(0, text.size() - 1) : text;
  double value = -1;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || end != number.data() + number.size() || value < 0) {
    return make_error(option + " needs a percentage of 0 or more (for example 5 or 5%), got '" + text + "'");
  }
  return value / 100;
}

/// A setter for an option whose value is a percentage.
std::function<Expected<void>(CliOptions&, const std::string&)> percent_option(
    const char* name, std::function<void(CliOptions&, double)> set) {
  return [name, set](CliOptions& o, const std::string& v) -> Expected<void> {
    auto value = percentage(name, v);
    if (!value) return value.error();
    set(o, *value);
    return {};
  };
}

const std::vector<OptionSpec>& option_table() {
  // One option a row, its setter beside it.
  // clang-format off
  static const std::vector<OptionSpec> k_options = {
      {"--policy", "FILE", "approval policy for every task (overrides the tasks' own)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.policy = v; return {}; }},
      {"--model", "PROVIDER/NAME", "model for every task (repeatable: each task runs with each model)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.models.push_back(v); return {}; }},
      {"--out", "DIR", "report folder (default: agent-run-out)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.out = v; o.out_given = true; return {}; }},
      {"--repeat", "K", "attempts per task and model (overrides the tasks' repeat)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto k = positive_integer("--repeat", v);
         if (!k) return k.error();
         o.repeat = *k;
         return {};
       }},
      {"--keep-workspaces", nullptr, "keep each attempt's workspace instead of removing it",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.keep_workspaces = true; return {}; }},
      {"-j", "N", "run N attempts at once, each in its own workspace (default 1)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto n = positive_integer("-j", v);
         if (!n) return n.error();
         o.jobs = *n;
         return {};
       }},
      {"--jobs", "N", "same as -j",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto n = positive_integer("--jobs", v);
         if (!n) return n.error();
         o.jobs = *n;
         return {};
       }},
      {"--shard", "I/N", "run only shard I of N (tasks split by a stable hash of their id)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto shard = shard_of_text(v);
         if (!shard) return shard.error();
         o.shard = *shard;
         return {};
       }},
      {"--filter", "GLOB", "run only tasks whose id matches GLOB (repeatable)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.filters.push_back(v); return {}; }},
      {"--require-checks", nullptr, "run and validate: a task file without checks is an error, not a warning",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.require_checks = true; return {}; }},
      {"--mcp", nullptr, "validate: start each task's MCP servers and check its scripted calls of their tools",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.mcp = true; return {}; }},
      {"--resume", nullptr, "run only the attempts the --out folder's report.json does not hold yet",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.resume = true; return {}; }},
      {"--quiet", nullptr, "print only the closing summary",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.quiet = true; return {}; }},
      {"--verbose", nullptr, "print every model turn and the details of each attempt",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.verbose = true; return {}; }},
      {"--record", nullptr, "keep each model call of each attempt as sent and as streamed (attempts/.../model_exchanges.jsonl), the key and secrets redacted",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.record = true; return {}; }},
      {"--replay", "DIR", "play the calls recorded in report folder DIR back through the model's client, with no model and no key; tools run for real",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.replay = v; return {}; }},
      {"--replay-loose", nullptr, "with --replay or model: replay: a request that differs from the recording is a warning, not an error",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.replay_loose = true; return {}; }},
      {"--max-cost", "USD", "budget of the whole run: once its attempts cost this much, no new attempt starts",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         double usd = -1;
         auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), usd);
         if (ec != std::errc() || end != v.data() + v.size() || usd <= 0)
           return make_error("--max-cost needs an amount of dollars above 0 (for example 2.50), got '" + v + "'");
         o.budget.max_cost_usd = usd;
         return {};
       }},
      {"--max-time", "DURATION", "budget of the whole run (30m, 2h): then no new attempt starts and running ones stop",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto duration = parse_duration(v);
         if (!duration || duration->count() <= 0)
           return make_error("--max-time needs a duration such as 90s, 30m or 2h, got '" + v + "'");
         o.budget.max_time = *duration;
         return {};
       }},
      {"--html", "FILE", "compare: also write the comparison as an HTML page",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.html = v; return {}; }},
      {"--fail-on-regression", nullptr, "compare: exit 1 when a change lies outside the noise and beyond the allowed",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.fail_on_regression = true; return {}; }},
      {"--max-pass-rate-drop", "PCT", "compare: allowed drop of the pass rate, in points (default 0)",
       percent_option("--max-pass-rate-drop", [](CliOptions& o, double v) { o.compare.max_pass_rate_drop = v; })},
      {"--max-cost-increase", "PCT", "compare: allowed rise of the cost per attempt, in percent (default: not checked)",
       percent_option("--max-cost-increase", [](CliOptions& o, double v) { o.compare.max_cost_increase = v; })},
      {"--max-token-increase", "PCT", "compare: allowed rise of the tokens per attempt, in percent",
       percent_option("--max-token-increase", [](CliOptions& o, double v) { o.compare.max_token_increase = v; })},
      {"--max-time-increase", "PCT", "compare: allowed rise of the time per attempt, in percent",
       percent_option("--max-time-increase", [](CliOptions& o, double v) { o.compare.max_time_increase = v; })},
      {"--seed", "N", "compare: the seed of the paired bootstrap (default 1)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto n = whole_number("--seed", v, 0);
         if (!n) return n.error();
         o.compare.seed = static_cast<std::uint64_t>(*n);
         return {};
       }},
      {"--prices", "FILE", "price table for model costs (default: the built-in one, runner/model/prices.json)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.prices = v; return {}; }},
      {"--max-output-tokens", "N", "output token limit of each model call (default: 8192 for anthropic/, the server's for openai/)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto n = whole_number("--max-output-tokens", v, 1);
         if (!n) return n.error();
         o.max_output_tokens = *n;
         return {};
       }},
      {"--temperature", "T", "sampling temperature, 0 to 2 (default: the provider's)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto t = temperature_value(v);
         if (!t) return t.error();
         o.temperature = *t;
         return {};
       }},
      {"--model-retries", "N", "retries of a model call on transient API errors (default: 6)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto n = whole_number("--model-retries", v, 0);
         if (!n) return n.error();
         o.model_retries = *n;
         return {};
       }},
      {"--model-idle-timeout", "DURATION", "silence from the model API that fails a try (default: 90s)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto d = parse_duration(v);
         if (!d || d->count() <= 0) return make_error("--model-idle-timeout needs a duration such as 90s or 5m, got '" + v + "'");
         o.model_idle_timeout = *d;
         return {};
       }},
      {"--tool", "NAME", "policy explain: the tool of the call to explain",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.tool = v; return {}; }},
      {"--input", "JSON", "policy explain: the call's input, a JSON object",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.input = v; return {}; }},
      {"--workspace", "DIR", "tool: the folder the calls work in; policy explain: where paths resolve (default: .)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.workspace = v; return {}; }},
      {"--task", "FILE", "tool: run the calls as in an attempt of this task (its policy, keys and protected files)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.task = v; return {}; }},
      {"--json", nullptr, "tool: each call's decision and result as one JSON object per line; mcp, compare: JSON output",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.json = true; return {}; }},
      {"--no-diagnostics", nullptr, "no per-edit diagnostics (language servers and linters) in this run",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.no_diagnostics = true; return {}; }},
      {"--sandbox", "on|off", "run and tool (and validate, which then warns of no program the sandbox would hide): commands and checks in bubblewrap (on, the default sandbox, whatever the tasks and policies say) or not (off: recorded and warned about); policy explain: decide as inside the sandbox (on, the default) or outside it",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         if (v != "on" && v != "off") return make_error("--sandbox needs on or off, got '" + v + "'");
         o.sandbox = v == "on";
         return {};
       }},
      {"--config", "FILE", "the run-wide configuration (default: agent-run.yaml in the current folder, when there is one); "
       "mcp: the task file or agent-run.yaml whose mcp_servers: holds the server named (default: agent-run.yaml here)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.config = v; return {}; }},
      {"-p", "PROMPT", "run PROMPT as an ad-hoc task in --workspace (default: the current folder, in place)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.prompt = v; return {}; }},
      {"--prompt", "PROMPT", "same as -p",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.prompt = v; return {}; }},
      {"--check", "CMD", "-p: a check of the ad-hoc task, a shell command run after the agent stops (repeatable)",
       [](CliOptions& o, const std::string& v) -> Expected<void> { o.checks.push_back(v); return {}; }},
      {"--output-format", "FORMAT", "text (default) or stream-json: one JSON event a line on stdout, progress on stderr",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         if (v == "text") o.output_format = OutputFormat::text;
         else if (v == "stream-json") o.output_format = OutputFormat::stream_json;
         else return make_error("--output-format must be text or stream-json, got '" + v + "'");
         return {};
       }},
      {"--thinking-budget", "N", "Anthropic extended thinking: budget_tokens of each call, at least 1024 (default: off)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         auto n = whole_number("--thinking-budget", v, 1024);
         if (!n) return n.error();
         o.thinking_budget = *n;
         return {};
       }},
      {"--reasoning-effort", "EFFORT", "OpenAI reasoning models: minimal, low, medium or high (default: the server's)",
       [](CliOptions& o, const std::string& v) -> Expected<void> {
         if (v != "minimal" && v != "low" && v != "medium" && v != "high") {
           return make_error("--reasoning-effort must be minimal, low, medium or high, got '" + v + "'");
         }
         o.reasoning_effort = v;
         return {};
       }},
      {"--help", nullptr, "show this help",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.command = Command::help; return {}; }},
      {"--version", nullptr, "show the version",
       [](CliOptions& o, const std::string&) -> Expected<void> { o.command = Command::version; return {}; }},
  };
  // clang-format on
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

/// `policy explain` and `policy test`: which one, and what each must be given.
Expected<void> check_policy_command(const CliOptions& options) {
  if (options.command == Command::policy_test) {
    if (options.files.empty()) return make_error("policy test needs a policy file");
    return {};
  }
  if (!options.policy || !options.tool || !options.input) {
    return make_error("policy explain needs --policy FILE, --tool NAME and --input JSON");
  }
  if (!options.files.empty()) return make_error("policy explain takes no files, got '" + options.files[0] + "'");
  return {};
}

Expected<CliOptions> parse_cli(const std::vector<std::string>& arguments) {
  CliOptions options;
  std::size_t first = 0;
  if (!arguments.empty() && (arguments[0] == "run" || arguments[0] == "validate")) {
    options.command = arguments[0] == "run" ? Command::run : Command::validate;
    first = 1;
  } else if (!arguments.empty() && (arguments[0] == "merge" || arguments[0] == "compare")) {
    options.command = arguments[0] == "merge" ? Command::merge : Command::compare;
    first = 1;
  } else if (!arguments.empty() && arguments[0] == "policy") {
    if (arguments.size() < 2 || (arguments[1] != "explain" && arguments[1] != "test")) {
      return make_error("policy needs a subcommand: explain or test");
    }
    options.command = arguments[1] == "explain" ? Command::policy_explain : Command::policy_test;
    first = 2;
  } else if (!arguments.empty() && arguments[0] == "tool") {
    options.command = Command::tool;
    first = 1;
  } else if (!arguments.empty() && arguments[0] == "config") {
    options.command = Command::config;
    first = 1;
  } else if (!arguments.empty() && arguments[0] == "doctor") {
    options.command = Command::doctor;
    first = 1;
  } else if (!arguments.empty() && arguments[0] == "mcp") {
    options.command = Command::mcp;
    first = 1;
  }
  for (std::size_t i = first; i < arguments.size(); ++i) {
    if (options.command == Command::mcp && arguments[i] == "--") {  // the rest is the server's command line
      options.server_command.assign(arguments.begin() + static_cast<std::ptrdiff_t>(i) + 1, arguments.end());
      if (options.server_command.empty()) return make_error("mcp: '--' must be followed by the server's command");
      break;
    }
    if (arguments[i].size() > 1 && arguments[i][0] == '-') {
      AR_TRY(apply_option(options, arguments, i));
    } else {
      options.files.push_back(arguments[i]);
    }
  }
  if (options.command == Command::help || options.command == Command::version) {
    return options;
  }
  if (options.quiet && options.verbose) return make_error("--quiet and --verbose exclude each other");
  if (options.command == Command::merge) {
    if (options.files.empty()) return make_error("merge needs at least one report folder");
    if (!options.out_given) return make_error("merge needs --out DIR: the folder for the merged reports");
  }
  if (options.command == Command::compare) {
    if (options.files.size() != 2) return make_error("compare needs two reports: BASE HEAD (report.json files or folders)");
    return options;
  }
  if (options.command == Command::policy_explain || options.command == Command::policy_test) {
    AR_TRY(check_policy_command(options));
    return options;
  }
  if (options.command == Command::doctor) {
    if (!options.files.empty()) return make_error("doctor takes no files, got '" + options.files.front() + "' (use --workspace DIR)");
    return options;
  }
  if (options.command == Command::mcp) return options;  // its subcommand and words are checked by mcp_command
  if (options.command == Command::tool) {
    if (!options.workspace) return make_error("tool needs --workspace DIR (tool calls are read from standard input)");
    if (!options.files.empty())
      return make_error("tool takes no files, got '" + options.files.front() +
                        "' (tool calls are read from standard input)");
    return options;
  }
  if (options.prompt && options.command != Command::run)
    return make_error("-p runs an ad-hoc task; it takes no subcommand");
  if (options.prompt && !options.files.empty()) {
    return make_error("-p runs one ad-hoc task; it takes no task files, got '" + options.files.front() + "'");
  }
  if (!options.checks.empty() && !options.prompt) {
    return make_error("--check adds a check to the -p task; a task file has 'checks:'");
  }
  if (options.prompt && options.prompt->find_first_not_of(" \t\n") == std::string::npos) {
    return make_error("-p needs a prompt that is not empty");
  }
  if (options.command == Command::config && options.files.size() > 1) {
    return make_error("config shows the settings of one task file (or none: the configuration's defaults)");
  }
  const bool validates_configuration = options.command == Command::validate && options.config;
  if (options.files.empty() && !options.prompt && options.command != Command::config && !validates_configuration) {
    return make_error(options.command == Command::validate
                          ? "validate needs at least one file (or --config FILE)"
                          : "no task files given (try: agent-run tasks/*.yaml, or -p \"PROMPT\")");
  }
  return options;
}

std::string usage_text() {
  std::string text =
      "usage: agent-run [run] TASK.yaml... [options]\n"
      "       agent-run validate FILE... [--mcp]   check task and policy files; nothing runs but\n"
      "                                      (with --mcp) the tasks' MCP servers, asked for their tools\n"
      "       agent-run doctor [--workspace DIR]   whether a run would work here: sandbox, checkers, endpoints\n"
      "       agent-run merge DIR... --out DIR   join the report folders of shards or runs into one\n"
      "       agent-run compare BASE HEAD [--json] [--fail-on-regression] [--max-pass-rate-drop PCT] ...\n"
      "                                      what changed between two runs, told apart from noise\n"
      "                                      (exit 1 a regression with --fail-on-regression, 2 unreadable input)\n"
      "       agent-run policy explain --policy FILE --tool NAME --input JSON [--workspace DIR] [--sandbox on|off]\n"
      "                                      how the policy decides one tool call (exit 0 allowed, 1 denied)\n"
      "       agent-run policy test FILE...  run each policy's rule examples (exit 0 all pass, 1 some fail)\n"
      "       agent-run tool --workspace DIR [--task FILE] [--policy FILE] [--sandbox on|off] [--json] "
      "[--no-diagnostics]\n"
      "                      < calls.jsonl\n"
      "                                      run tool calls ({\"tool\": NAME, \"input\": {...}} a line) as the agent "
      "would\n"
      "       agent-run -p PROMPT [--workspace DIR] [--check CMD]... [options]   an ad-hoc task; its answer on stdout\n"
      "       agent-run config [TASK.yaml]   each effective setting and where it came from\n\n"
      "       agent-run mcp list SERVER [--json]   the tools of an MCP server, with their schemas\n"
      "       agent-run mcp call SERVER TOOL [JSON] [--json]   call one tool (exit 1 when it fails)\n"
      "                                      SERVER: a URL, a name in agent-run.yaml or --config FILE, or -- COMMAND...\n\n"
      "options:\n";
  for (const OptionSpec& option : option_table()) {
    std::string left =
        std::string("  ") + option.name + (option.value_name ? std::string(" ") + option.value_name : "");
    left.resize(std::max<std::size_t>(left.size() + 2, 30), ' ');
    text += left + option.help + "\n";
  }
  text +=
      "\nexit codes: 0 every attempt passed; 1 at least one failed; 2 invalid invocation or file, nothing ran;\n"
      "            3 none failed but at least one could not be judged;\n"
      "            130/143 interrupted by SIGINT/SIGTERM (reports of what ran are written)\n";
  return text;
}

}  // namespace agent_run
