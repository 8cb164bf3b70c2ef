#include "diagnostics/edit_checker.h"

#include "base/digest.h"
#include "base/files.h"
#include "base/paths.h"
#include "base/text.h"
#include "diagnostics/problems.h"
#include "diagnostics/warm_start.h"
#include "diagnostics/warning_promotion.h"
#include "exec/attempt_sandbox.h"
#include "exec/process.h"

#include <future>
#include <set>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;

constexpr std::chrono::milliseconds k_version_timeout{3000};
// Consecutive checks a server left unanswered before it counts as stuck and is stopped (with a
// cooldown); more than one, since a server's first checks after it starts can be slow.
constexpr int k_stuck_after = 3;
// What a warm server's check is left at least, after an edit waited for its first answer.
constexpr std::chrono::milliseconds k_first_check{300};
// The least time kept for a fast linter behind a server that has answered: twice what the linter
// took last time in the project, at least this, at most the settings' reserve.
constexpr std::chrono::milliseconds k_least_linter_reserve{250};
// The most files the compiler is asked of in one edit's check, to label clangd's warnings.
constexpr std::size_t k_most_files_asked = 2;
// The most files importing an edited one that its check opens (each is one more document to analyse).
constexpr std::size_t k_most_importers = 20;

/// LSP diagnostics of one document as problems.
void add_lsp_problems(std::vector<Problem>& out, const std::vector<Json>& items, const std::filesystem::path& path,
                      const EditCheckRequest& request, const std::optional<std::string>& text) {
  bool other_file = path != request.file;
  std::string name = workspace_relative(path, request.workspace);
  for (const Json& item : items) {
    if (auto problem = problem_from_lsp(item, name, text, other_file)) out.push_back(std::move(*problem));
  }
}

/// The other files whose problems differ between `before` and `after`.
std::set<std::string> changed_neighbours(const std::vector<Problem>& before, const std::vector<Problem>& after) {
  std::set<std::string> changed;
  for (const Problem& problem : problems_not_in(after, before)) {
    if (problem.other_file) changed.insert(problem.path);
  }
  for (const Problem& problem : problems_not_in(before, after)) {
    if (problem.other_file) changed.insert(problem.path);
  }
  return changed;
}

std::vector<Problem> select(const std::vector<Problem>& problems, const std::set<std::string>& neighbours, bool all) {
  std::vector<Problem> selected;
  for (const Problem& problem : problems) {
    if (!problem.other_file || all || neighbours.count(problem.path)) selected.push_back(problem);
  }
  return selected;
}

std::vector<Problem> without_warnings(std::vector<Problem> problems) {
  std::erase_if(problems, [](const Problem& problem) { return problem.severity != "error"; });
  return problems;
}

/// Linter problems (absolute paths) made workspace-relative, the copy of earlier content named as the file.
std::vector<Problem> relative_problems(std::vector<Problem> problems, const EditCheckRequest& request,
                                       const std::optional<std::filesystem::path>& copy) {
  for (Problem& problem : problems) {
    std::filesystem::path path(problem.path);
    if (problem.line == 0 || (copy && !copy->empty() && path == *copy)) path = request.file;
    problem.other_file = path != request.file;
    problem.path = workspace_relative(path, request.workspace);
  }
  return problems;
}

/// How long an edit waits for a primed server's first answer (from `start`, with the server's time
/// ending at `server_deadline`): until k_first_check before that end, so that its own check still has
/// time, or half the server's time when that is later (a short budget).
TimePoint first_answer_deadline(TimePoint start, TimePoint server_deadline) {
  return std::max(start + (server_deadline - start) / 2, server_deadline - k_first_check);
}

long long milliseconds_since(TimePoint start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start).count();
}

}  // namespace

std::chrono::milliseconds reserve_for_linter(std::chrono::milliseconds most, bool server_answered,
                                             std::optional<std::chrono::milliseconds> linter_took) {
  if (!server_answered || !linter_took) return most;
  return std::min(most, std::max(2 * *linter_took, k_least_linter_reserve));
}

EditDiagnostics EditChecker::check_edit(const EditCheckRequest& request) {
  std::lock_guard lock(m_mutex);
  const TimePoint start = SteadyClock::now();
  const TimePoint deadline = start + request.budget.value_or(m_pool.settings().budget);
  EditDiagnostics result;
  result.status = "unavailable";
  Language language = language_of(request.file, request.after);
  if (language == Language::none) {
    result.note = "no checker for this kind of file";
    return result;
  }
  std::filesystem::path root = project_root(language, request.file, request.workspace);
  std::optional<LinterCommand> linter = linter_for(language, request.file, root, request.environment);
  Attempts attempts;
  if (!try_servers(request, language, root, linter, deadline, result, attempts)) {
    if (linter) {
      use_linter(*linter, request, language, root, deadline, result);
    } else if (!attempts.abandoned_by.empty()) {
      result = EditDiagnostics{attempts.abandoned_by, "", "server", "timeout"};
    } else {
      attempts.notes.push_back("no language server or linter for this file on PATH");
    }
  }
  result.note = join(attempts.notes, "; ");
  result.duration_ms = milliseconds_since(start);
  return result;
}

/// The file's language servers in turn: true when one answered (in `result`). A server still
/// starting is left to warm up when a linter can answer now, and is given the file at once
/// (primed) so that its first analysis is done by the next edit; a failed one goes on cooldown, or
/// is started afresh when it died after it had answered; one that gives no answer in time is
/// abandoned (k_stuck_after times in a row: it is stopped). Before it is asked, a server is told
/// every change on disk since it was last told: its answer is about the files as they are.
bool EditChecker::try_servers(const EditCheckRequest& request, Language language, const std::filesystem::path& root,
                              const std::optional<LinterCommand>& linter, TimePoint deadline, EditDiagnostics& result,
                              Attempts& attempts) {
  const TimePoint start = deadline - request.budget.value_or(m_pool.settings().budget);
  for (const ServerSpec& spec : language_servers(language, root, request.environment)) {
    for (int round = 0; round < 2; ++round) {  // a second round only after the server was let go to restart
      bool restarted = false;
      Expected<LanguageServer*> server = m_pool.acquire(spec, root, request.environment, request.sandbox, &restarted);
      if (restarted) attempts.notes.push_back(spec.name + " stopped working and was started again");
      if (!server) {
        attempts.notes.push_back(server.error().message);
        break;
      }
      adopt(**server, root, request.hidden);
      bool keep_reserve = linter && !linter->whole_project;
      TimePoint server_deadline = keep_reserve ? deadline - linter_reserve(**server, *linter, root) : deadline;
      if ((*server)->state() == ServerState::starting && linter) {
        (*server)->prime(request.file, language_id(language, request.file), request.after);
        attempts.notes.push_back(spec.name + " is starting");
        return false;
      }
      // Primed while it started: its first analysis may still be running. Wait for it, leaving the
      // check its time; if it takes longer the linter answers and nothing piles up at the server.
      if (linter && (*server)->warming() &&
          !(*server)->wait_answered(first_answer_deadline(start, server_deadline)) &&
          (*server)->state() != ServerState::failed) {
        attempts.notes.push_back(spec.name + " is still on its first analysis");
        return false;
      }
      (*server)->wait_ready(deadline);
      ServerOutcome outcome;
      FolderSurvey disk = survey_folder(root, request.hidden);
      if (!(*server)->catch_up(disk, request.file, request.hidden)) {
        outcome.failure = (*server)->failure();
      } else {
        outcome = check_with_server(**server, request, language, server_deadline,
                                    importers_to_open(**server, request, root, disk));
      }
      if (outcome.comparison) {
        m_timeouts.erase(*server);
        if (linter && (language == Language::c || language == Language::cpp))
          label_as_the_compiler(*outcome.comparison, *linter, request, root, deadline);
        result.checker = spec.name;
        result.checker_kind = "server";
        result.checker_version = server_version(**server, request);
        finish(result, request, std::move(*outcome.comparison));
        return true;
      }
      if (!outcome.timed_out) {
        attempts.notes.push_back(spec.name + " failed: " + outcome.failure);
        m_timeouts.erase(*server);
        if (m_pool.report_failure(*server) && SteadyClock::now() < server_deadline) continue;  // a fresh one
        break;
      }
      attempts.notes.push_back(spec.name + " gave no answer in time");
      attempts.abandoned_by = spec.name;
      Unanswered& unanswered = m_timeouts[*server];
      // Stuck is silent: a server that said anything since its last unanswered check (a late answer,
      // a publish) is slow, and its count starts again.
      std::uint64_t received = (*server)->messages_received();
      unanswered.checks = received > unanswered.messages_then ? 1 : unanswered.checks + 1;
      unanswered.messages_then = received;
      if (unanswered.checks >= k_stuck_after) {
        m_timeouts.erase(*server);
        m_pool.report_failure(*server);
      }
      return false;
    }
  }
  return false;
}

/// clangd's C and C++ findings as the compiler would report them. clangd shows a warning that the
/// project's flags make an error (-Werror, -Werror=NAME, -pedantic-errors) as a warning, while the
/// build fails on it: such warnings are labelled errors. By the flags alone where they say so; under
/// -pedantic-errors (which makes only the warnings about extensions errors) by what the compiler
/// itself (the linter, in the time left) says of the warnings in the edited file and in a file
/// including it, learned once per warning for the project. And clangd 14 under -pedantic says "ISO C
/// requires a translation unit to contain at least one declaration" of any file without an
/// #include (of its empty preamble): dropped for a file that declares something.
void EditChecker::label_as_the_compiler(Comparison& comparison, const LinterCommand& compiler,
                                        const EditCheckRequest& request, const std::filesystem::path& root,
                                        TimePoint deadline) {
  auto declares_something = [](const std::optional<std::string>& text) {
    return text && text->find_first_of(";}") != std::string::npos;
  };
  if (declares_something(request.after) && (!request.before || declares_something(request.before))) {
    for (std::vector<Problem>* problems : {&comparison.before, &comparison.after}) {
      std::erase_if(*problems, [](const Problem& problem) {
        return !problem.other_file && problem.code == "-Wempty-translation-unit";
      });
    }
  }
  WarningPromotion flags(compiler.argv);
  if (!flags.any()) return;
  std::map<std::string, bool>& learned = m_compiler_errors[root];
  // file -> line -> a warning there that only the compiler can judge (the edited file and, at most
  // k_most_files_asked - 1, the files including it whose problems the server reported)
  std::map<std::filesystem::path, std::map<int, std::string>> unknown;
  for (const Problem& problem : comparison.after) {
    std::string name = warning_name(problem.code);
    if (problem.severity != "warning" || !flags.needs_compiler(problem.code) || learned.count(name)) continue;
    std::filesystem::path file = request.workspace / problem.path;
    if (unknown.size() < k_most_files_asked || unknown.count(file)) unknown[file].emplace(problem.line, name);
  }
  for (const auto& [file, lines] : unknown) {
    if (SteadyClock::now() >= deadline) break;
    std::optional<LinterCommand> asked = file == request.file
                                             ? std::optional(compiler)
                                             : linter_for(language_of(file, ""), file, root, request.environment);
    LinterResult said = asked ? run_linter(*asked, request.environment, deadline, request.sandbox) : LinterResult{};
    for (const Problem& problem : said.finished ? said.problems : std::vector<Problem>{}) {
      auto warning = lines.find(problem.line);
      if (warning == lines.end() || std::filesystem::path(problem.path) != file ||
          warning_name(problem.code) != warning->second)
        continue;
      learned[warning->second] = problem.severity == "error";
    }
  }
  for (std::vector<Problem>* problems : {&comparison.before, &comparison.after}) {
    for (Problem& problem : *problems) {
      auto known = learned.find(warning_name(problem.code));
      bool error = flags.promotes(problem.code) || (known != learned.end() && known->second);
      if (problem.severity == "warning" && error) problem.severity = "error";
    }
  }
}

/// A server seen for the first time (just started, or started again) gets its picture of the disk,
/// from which the changes it is told of are counted.
void EditChecker::adopt(LanguageServer& server, const std::filesystem::path& root, const HiddenPath& hidden) {
  if (server.has_disk_view()) return;
  m_timeouts.erase(&server);  // a new server at the address of a stopped one
  server.set_disk_view(survey_folder(root, hidden));
}

std::chrono::milliseconds EditChecker::linter_reserve(const LanguageServer& server, const LinterCommand& linter,
                                                      const std::filesystem::path& root) const {
  auto took = m_linter_took.find({linter.name, root});
  return reserve_for_linter(m_pool.settings().linter_reserve, server.answered(),
                            took == m_linter_took.end() ? std::nullopt : std::optional(took->second));
}

void EditChecker::use_linter(const LinterCommand& linter, const EditCheckRequest& request, Language language,
                             const std::filesystem::path& root, TimePoint deadline, EditDiagnostics& result) {
  const TimePoint start = SteadyClock::now();
  std::optional<Comparison> comparison = check_with_linter(linter, request, language, root, deadline);
  // A linter that did not finish in what it was left gets the whole reserve again next time.
  m_linter_took[{linter.name, root}] =
      comparison ? std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start)
                 : m_pool.settings().linter_reserve;
  result.checker = linter.name;
  result.checker_kind = "linter";
  result.checker_version = program_version(linter.version_argv, request);
  if (comparison) {
    finish(result, request, std::move(*comparison));
  } else {
    result.status = "timeout";
  }
}

/// The files of the project that import the edited one and that the server is to open beside it
/// (at most k_most_importers, read beneath the root), for a server that reports them (opens_importers)
/// and an edit of an existing file: what a rename broke in them is only published for open documents.
std::vector<RelatedDocument> EditChecker::importers_to_open(const LanguageServer& server,
                                                            const EditCheckRequest& request,
                                                            const std::filesystem::path& root,
                                                            const FolderSurvey& disk) {
  std::vector<RelatedDocument> documents;
  if (!server.spec().opens_importers || !request.before) return documents;
  ImportIndex& index = m_imports.try_emplace(root, root).first->second;
  index.update(disk);
  for (const std::filesystem::path& importer : index.importers_of(request.file, k_most_importers)) {
    auto text = read_file_beneath(root, importer.lexically_relative(root).string(), k_largest_indexed_file);
    if (!text) continue;
    std::string id = language_id(language_of(importer, *text), importer);
    documents.push_back(RelatedDocument{importer, std::move(id), std::move(*text)});
  }
  return documents;
}

/// The server's lists before and after the edit. The files importing the edited one that it does
/// not hold yet are opened while it holds the file's earlier text, so that their lists then are
/// the baseline the edit's are compared with; one whose list did not come in time (half of what
/// is left) is not judged by this edit.
EditChecker::ServerOutcome EditChecker::check_with_server(LanguageServer& server, const EditCheckRequest& request,
                                                          Language language, TimePoint deadline,
                                                          const std::vector<RelatedDocument>& importers) {
  ServerOutcome outcome;
  const std::string id = language_id(language, request.file);
  auto failed = [&](const Error& error) {
    outcome.timed_out = server.state() != ServerState::failed;
    outcome.failure = error.message;
    return outcome;
  };
  if (server.state() != ServerState::ready)
    return failed(make_error(server.failure().empty() ? "not ready" : server.failure()));
  Comparison comparison;
  comparison.compared = true;
  DiagnosticsSnapshot since = server.snapshot();  // neighbours: what changed from here to the end
  if (request.before) {
    std::optional<std::vector<Json>> known = server.known_diagnostics(request.file, *request.before);
    if (!known) {
      Expected<ServerAnswer> earlier = server.check(request.file, id, *request.before, deadline);
      if (!earlier) return failed(earlier.error());
      known = earlier->items;
    }
    add_lsp_problems(comparison.before, *known, request.file, request, request.before);
  }
  std::set<std::string> unjudged;  // importers opened whose lists before the edit are not known
  if (request.before && !importers.empty()) {
    OpenedDocuments opened = server.open_related(importers, SteadyClock::now() + (deadline - SteadyClock::now()) / 2);
    const DiagnosticsSnapshot baseline = server.snapshot();
    for (const std::string& uri : opened.answered) {
      auto list = baseline.lists.find(uri);
      since.lists[uri] = list == baseline.lists.end() ? std::vector<Json>{} : list->second;
    }
    unjudged = std::move(opened.unanswered);
  }
  Expected<ServerAnswer> answer = server.check(request.file, id, request.after, deadline, &since);
  if (!answer) return failed(answer.error());
  add_lsp_problems(comparison.after, answer->items, request.file, request, request.after);
  for (const DocumentDiagnostics& neighbour : answer->neighbours_before) {
    if (unjudged.count(neighbour.uri)) continue;
    add_lsp_problems(comparison.before, neighbour.items, uri_to_path(neighbour.uri), request, std::nullopt);
  }
  for (const DocumentDiagnostics& neighbour : answer->neighbours_after) {
    if (unjudged.count(neighbour.uri)) continue;
    add_lsp_problems(comparison.after, neighbour.items, uri_to_path(neighbour.uri), request, std::nullopt);
  }
  outcome.comparison = std::move(comparison);
  return outcome;
}

std::optional<EditChecker::Comparison> EditChecker::check_with_linter(const LinterCommand& linter,
                                                                      const EditCheckRequest& request,
                                                                      Language language,
                                                                      const std::filesystem::path& root,
                                                                      TimePoint deadline) {
  Comparison comparison;
  std::future<std::optional<std::vector<Problem>>> baseline;
  if (!request.before && language != Language::go) {
    comparison.compared = true;  // a new file; a single-file linter has no neighbours to compare
  } else if (auto last = m_last.find(request.file.string());
             request.before && last != m_last.end() && last->second.checker == linter.name &&
             last->second.content_sha256 == sha256_hex(*request.before)) {
    comparison.before = last->second.problems;
    comparison.compared = true;
  } else {
    baseline = std::async(std::launch::async,
                          [&] { return linter_baseline(request, language, root, deadline, comparison.errors_only); });
  }
  LinterResult after = run_linter(linter, request.environment, deadline, request.sandbox);
  if (baseline.valid()) {
    if (auto before = baseline.get()) {
      comparison.before = std::move(*before);
      comparison.compared = true;
    }
  }
  if (!after.finished) return std::nullopt;
  comparison.after = relative_problems(std::move(after.problems), request, std::nullopt);
  return comparison;
}

/// Runs the linter on the content before the edit, from a copy outside the workspace (for a new
/// file, on the project without it). In a sandbox the copy is in its private /tmp, which the linter
/// sees at /tmp.
std::optional<std::vector<Problem>> EditChecker::linter_baseline(const EditCheckRequest& request, Language language,
                                                                 const std::filesystem::path& root, TimePoint deadline,
                                                                 bool& errors_only) {
  const std::filesystem::path tmp =
      request.sandbox ? request.sandbox->layout().private_tmp : std::filesystem::temp_directory_path();
  auto folder = make_unique_folder(tmp, "agent-run-baseline-");
  if (!folder) return std::nullopt;
  const std::filesystem::path seen = request.sandbox ? "/tmp" / folder->filename() : *folder;
  const std::filesystem::path name = request.file.filename();
  std::optional<std::vector<Problem>> problems;
  if (!request.before || write_file_atomically(*folder / name, *request.before)) {
    EarlierContent earlier{seen, request.before ? seen / name : std::filesystem::path(), *folder};
    auto command = linter_for(language, request.file, root, request.environment, earlier);
    LinterResult ran = command ? run_linter(*command, request.environment, deadline, request.sandbox) : LinterResult{};
    if (ran.finished) {
      problems = relative_problems(std::move(ran.problems), request, earlier.copy);
      errors_only = command->errors_only;
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(*folder, ignored);
  return problems;
}

void EditChecker::finish(EditDiagnostics& result, const EditCheckRequest& request, Comparison comparison) {
  std::set<std::string> neighbours = changed_neighbours(comparison.before, comparison.after);
  result.problems = select(comparison.after, neighbours, !comparison.compared);
  std::vector<Problem> before = select(comparison.before, neighbours, false);
  result.compared = comparison.compared;
  result.introduced = comparison.compared ? problems_not_in(result.problems, before) : result.problems;
  result.resolved = comparison.compared ? problems_not_in(before, result.problems) : std::vector<Problem>{};
  if (comparison.errors_only) {  // warnings cannot be compared with a baseline that has none
    result.introduced = without_warnings(result.introduced);
    result.resolved = without_warnings(result.resolved);
  }
  sort_problems(result.problems);
  result.status = result.problems.empty() ? "clean" : "problems";
  m_last[request.file.string()] = LastCheck{result.checker, sha256_hex(request.after), comparison.after};
}

/// serverInfo.version (gopls's own is a JSON text: its "Version" and "GoVersion"), else the program's.
std::string EditChecker::server_version(const LanguageServer& server, const EditCheckRequest& request) {
  std::string version = server.version();
  if (version.rfind("{", 0) == 0) {
    auto info = parse_json(version);
    if (info && info->is_object()) return info->get_string("Version") + " (" + info->get_string("GoVersion") + ")";
  }
  return version.empty() ? program_version(server.spec().version_argv, request) : version;
}

std::string EditChecker::program_version(const std::vector<std::string>& version_argv,
                                         const EditCheckRequest& request) {
  if (version_argv.empty()) return {};
  auto known = m_versions.find(version_argv.front());
  if (known != m_versions.end()) return known->second;
  ProcessSpec spec;
  spec.argv = version_argv;
  spec.environment = request.environment;
  spec.timeout = k_version_timeout;
  auto ran = run_process(in_attempt_sandbox(request.sandbox, std::move(spec)));  // a project's own tool, maybe
  std::string version = ran && ran->exit_code == 0 ? std::string(trim(split(ran->output, '\n').front())) : "";
  m_versions[version_argv.front()] = version;
  return version;
}

void EditChecker::release_workspace(const std::filesystem::path& workspace) {
  std::lock_guard lock(m_mutex);
  std::error_code ec;
  std::filesystem::path folder = std::filesystem::weakly_canonical(workspace, ec);
  m_pool.release_under(ec ? workspace : folder);
  std::erase_if(m_imports, [&](const auto& entry) { return is_at_or_under(entry.first, ec ? workspace : folder); });
  std::erase_if(m_linter_took,
                [&](const auto& entry) { return is_at_or_under(entry.first.second, ec ? workspace : folder); });
  std::erase_if(m_compiler_errors,
                [&](const auto& entry) { return is_at_or_under(entry.first, ec ? workspace : folder); });
  std::erase_if(m_last, [&](const auto& entry) {
    return workspace_relative(entry.first, ec ? workspace : folder) != entry.first;
  });
}

void EditChecker::workspace_changed(const WorkspaceRequest& request) {
  std::unique_lock lock(m_mutex, std::try_to_lock);
  if (!lock) return;  // a check is running; the next one tells the servers first anyway
  for (LanguageServer* server : m_pool.servers_under(request.workspace)) {
    if (server->state() != ServerState::ready || !server->has_disk_view()) continue;
    if (!server->catch_up(survey_folder(server->root(), request.hidden), {}, request.hidden)) {
      m_timeouts.erase(server);
      m_pool.report_failure(server);  // started again by the next edit when it had worked
    }
  }
}

void EditChecker::warm_workspace(const WorkspaceRequest& request) {
  std::lock_guard lock(m_mutex);
  for (const WarmStart& warm : warm_starts(request.workspace, request.hidden, m_pool.settings().max_servers)) {
    std::filesystem::path root = project_root(warm.language, warm.file, request.workspace);
    for (const ServerSpec& spec : language_servers(warm.language, root, request.environment)) {
      Expected<LanguageServer*> server = m_pool.acquire(spec, root, request.environment, request.sandbox);
      if (!server) continue;  // the first edit says why
      adopt(**server, root, request.hidden);
      (*server)->prime(warm.file, language_id(warm.language, warm.file), warm.text);
      break;  // the first server of the language that starts; the others only if an edit needs them
    }
  }
}

Expected<std::string> EditChecker::warm_up(const std::filesystem::path& file, const std::filesystem::path& workspace,
                                           const std::vector<std::string>& environment,
                                           std::chrono::milliseconds timeout, Silence silence) {
  std::lock_guard lock(m_mutex);
  auto content = read_file(file);
  Language language = language_of(file, content ? *content : "");
  std::filesystem::path root = project_root(language, file, workspace);
  std::vector<std::string> failures;
  const TimePoint deadline = SteadyClock::now() + timeout;
  for (const ServerSpec& spec : language_servers(language, root, environment)) {
    Expected<LanguageServer*> server = m_pool.acquire(spec, root, environment);
    if (!server) {
      failures.push_back(server.error().message);
      continue;
    }
    adopt(**server, root, {});
    std::string failure = "it did not initialize: " + (*server)->failure();
    if ((*server)->wait_ready(deadline) && content) {
      auto analysed = (*server)->check(file, language_id(language, file), *content, deadline, nullptr, silence);
      if (analysed) return spec.name;  // initialized, and has analysed the file once
      failure = analysed.error().message;
    }
    failures.push_back(spec.name + ": " + failure);
    if (server) m_pool.report_failure(*server);
  }
  return make_error(failures.empty() ? "no language server on PATH for " + file.string() : join(failures, "; "));
}

}  // namespace agent_run
