#include "app/commands.h"

#include "base/files.h"
#include "base/text.h"
#include "diagnostics/languages.h"
#include "diagnostics/linters.h"
#include "exec/attempt_sandbox.h"
#include "exec/process.h"
#include "exec/sandbox_probe.h"
#include "exec/spawn.h"
#include "diagnostics/warm_start.h"
#include "net/tcp_probe.h"
#include "net/web_url.h"

#include <filesystem>

namespace agent_run {

namespace fs = std::filesystem;

namespace {

// More languages than diagnostics know: each one the workspace holds is checked.
constexpr std::size_t k_most_languages = 16;

/// What `agent-run doctor` found so far, and whether a run would work.
struct Findings {
  std::ostream& out;
  bool fatal = false;
  void line(const char* mark, const std::string& what, const std::string& text) {
    out << mark << " " << what << ": " << text << "\n";
  }
  void ok(const std::string& what, const std::string& text) { line("ok  ", what, text); }
  void warn(const std::string& what, const std::string& text) { line("warn", what, text); }
  void fail(const std::string& what, const std::string& text) {
    line("FAIL", what, text);
    fatal = true;
  }
};

/// A file of `language` for linter_for to look at (the linters choose by extension).
fs::path sample_file(Language language, const fs::path& workspace) {
  switch (language) {
    case Language::go: return workspace / "x.go";
    case Language::python: return workspace / "x.py";
    case Language::typescript: return workspace / "x.ts";
    case Language::javascript: return workspace / "x.js";
    case Language::c: return workspace / "x.c";
    case Language::cpp: return workspace / "x.cpp";
    case Language::shell: return workspace / "x.sh";
    case Language::rust: return workspace / "x.rs";
    case Language::none: break;
  }
  return workspace / "x";
}

/// Whether `program` is found inside `sandbox` (its PATH), asked with `command -v` in a shell there.
bool visible_in_sandbox(AttemptSandbox& sandbox, const std::string& program, const std::vector<std::string>& environment) {
  ProcessSpec probe;
  probe.argv = {"/bin/sh", "-c", "command -v \"$1\" >/dev/null", "sh", program};
  probe.environment = environment;
  probe.timeout = std::chrono::seconds(60);
  auto ran = run_process(sandbox.wrap(probe));
  return ran && ran->exit_code == 0;
}

/// Whether something listens at `url`'s host and port (a TCP connection opens), or why not.
Expected<void> endpoint_answers(const std::string& url) {
  auto parsed = parse_web_url(url);
  if (!parsed) return parsed.error();
  std::string host = parsed->host;
  if (host.size() > 1 && host.front() == '[') host = host.substr(1, host.size() - 2);
  return tcp_connects(host, parsed->port);
}

void check_programs(Findings& findings, const std::vector<std::string>& environment) {
  if (auto git = find_program("git", environment)) findings.ok("git", git->string());
  else findings.fail("git", "not found on PATH: apt-get install git");
  if (auto rg = find_program("rg", environment)) findings.ok("ripgrep", rg->string());
  else findings.warn("ripgrep", "not found on PATH (grep falls back to a slower search): apt-get install ripgrep");
}

/// The sandbox: started as a run starts it, through SandboxProbe. Returns a started sandbox when it works.
std::unique_ptr<AttemptSandbox> check_sandbox(Findings& findings, const ProgramContext& context, const fs::path& scratch,
                                              const fs::path& workspace) {
  auto bwrap = find_program("bwrap", context.environment);
  if (!bwrap) {
    findings.fail("sandbox", "bubblewrap not installed (bwrap is not on PATH): apt-get install bubblewrap "
                             "(or run with --sandbox off where the machine is itself the sandbox)");
    return nullptr;
  }
  SandboxProbe probe(context.environment, scratch / "probe",
                     read_machine_facts(environment_value(context.environment, "KUBERNETES_SERVICE_HOST").has_value()));
  SandboxSpec spec;
  spec.set_by = "doctor";
  if (auto works = probe.check(spec); !works) {
    findings.fail("sandbox", works.error().message);
    return nullptr;
  }
  SandboxRequest request;
  request.spec = spec;
  request.workspace = workspace;
  request.attempt_folder = scratch / "attempt";
  auto started = AttemptSandbox::start(request, scratch, context.environment);
  if (!started) {
    findings.fail("sandbox", started.error().message);
    return nullptr;
  }
  findings.ok("sandbox", "bubblewrap works (" + bwrap->string() + ")");
  return std::move(*started);
}

void report_checker(Findings& findings, const std::string& what, const std::string& program, AttemptSandbox* sandbox,
                    const std::vector<std::string>& environment) {
  auto path = find_program(program, environment);
  if (!path) return;
  if (sandbox == nullptr) return findings.ok(what, path->string() + " (sandbox not checked)");
  if (visible_in_sandbox(*sandbox, path->string(), environment)) return findings.ok(what, path->string() + ", visible in the sandbox");
  findings.warn(what, path->string() + " is on the host but hidden in the sandbox (name its folder in the task's "
                                       "`sandbox: {read: [...]}`, or install it under /usr/local)");
}

void check_languages(Findings& findings, const fs::path& workspace, AttemptSandbox* sandbox,
                     const std::vector<std::string>& environment) {
  const std::vector<WarmStart> languages = warm_starts(workspace, {}, k_most_languages);
  if (languages.empty()) findings.ok("languages", "no source files of a language diagnostics know");
  for (const WarmStart& found : languages) {
    const Language language = found.language;
    const std::string name = language_id(language, found.file);
    const auto servers = language_servers(language, workspace, environment);
    const auto linter = linter_for(language, sample_file(language, workspace), workspace, environment);
    if (servers.empty() && !linter) {
      findings.warn(name, "no language server or linter found (see README.md, Install: the optional checkers)");
      continue;
    }
    for (const ServerSpec& server : servers)
      report_checker(findings, name + " server " + server.name, server.argv.at(0), sandbox, environment);
    if (linter) report_checker(findings, name + " linter " + linter->name, linter->argv.at(0), sandbox, environment);
  }
}

/// Which keys are set (never their values) and whether each endpoint in use answers.
void check_models(Findings& findings, const ProgramContext& context) {
  struct Provider {
    std::string name, key_variable;
    const ApiEndpoint& endpoint;
    std::string default_url;
  };
  const ModelAccess defaults;
  const Provider providers[] = {
      {"anthropic", "ANTHROPIC_API_KEY", context.model_access.anthropic, defaults.anthropic.base_url},
      {"openai", "OPENAI_API_KEY", context.model_access.openai, defaults.openai.base_url},
  };
  for (const Provider& p : providers) {
    const bool key_set = !p.endpoint.api_key.empty();
    const bool url_set = p.endpoint.base_url != p.default_url;  // *_BASE_URL, as config_command tells it
    const std::string key_text = p.key_variable + (key_set ? " is set" : " is not set");
    if (!key_set && !url_set) {
      findings.ok(p.name, key_text + " (only the scripted model and the other provider can run)");
      continue;
    }
    auto answers = endpoint_answers(p.endpoint.base_url);
    if (answers) findings.ok(p.name, key_text + "; " + p.endpoint.base_url + " answers");
    else findings.fail(p.name, key_text + "; " + p.endpoint.base_url + ": " + answers.error().message);
  }
}

}  // namespace

int doctor_command(const CliOptions& options, const ProgramContext& context) {
  Findings findings{context.out};
  std::error_code ec;
  const fs::path workspace = fs::weakly_canonical(options.workspace ? fs::path(*options.workspace) : fs::current_path(ec), ec);
  findings.ok("workspace", workspace.string());
  auto scratch = make_unique_folder(fs::temp_directory_path(ec), "agent-run-doctor-");
  if (!scratch) {
    findings.fail("scratch", scratch.error().message);
    return static_cast<int>(ExitCode::invalid);
  }
  check_programs(findings, context.environment);
  {
    std::unique_ptr<AttemptSandbox> sandbox = check_sandbox(findings, context, *scratch, workspace);
    check_languages(findings, workspace, sandbox.get(), context.environment);
  }
  check_models(findings, context);
  fs::remove_all(*scratch, ec);
  context.out << (findings.fatal ? "a run would fail: fix each FAIL above\n" : "a run would work\n");
  return findings.fatal ? static_cast<int>(ExitCode::some_failed) : 0;
}

}  // namespace agent_run
