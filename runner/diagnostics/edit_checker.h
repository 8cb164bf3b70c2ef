#pragma once

#include "diagnostics/dependents.h"
#include "diagnostics/diagnostics_checker.h"
#include "diagnostics/languages.h"
#include "diagnostics/linters.h"
#include "diagnostics/server_pool.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace agent_run {

/// What of an edit's budget is kept for a fast linter behind a warm language server: `most` (the
/// settings' reserve), or, behind a server that has answered (one that never has is not waited for
/// longer), twice what the linter took last time in the project, at least 250 ms: a slow server's
/// answer, which sees more than the linter (importers, types), then has most of the budget.
std::chrono::milliseconds reserve_for_linter(std::chrono::milliseconds most, bool server_answered,
                                             std::optional<std::chrono::milliseconds> linter_took);

/// The per-edit diagnostics check of a run: the file goes to its warm language server, or to a
/// linter while the server starts, is on cooldown, failed or is missing; the problems are compared
/// with those before the edit. Lives as long as the run, so servers stay warm between edits.
class EditChecker final : public DiagnosticsChecker {
 public:
  explicit EditChecker(DiagnosticsSettings settings = {}) : m_pool(settings) {}

  /// See DiagnosticsChecker.
  EditDiagnostics check_edit(const EditCheckRequest& request) override;
  std::chrono::milliseconds budget() const override { return m_pool.settings().budget; }
  void warm_workspace(const WorkspaceRequest& request) override;
  void workspace_changed(const WorkspaceRequest& request) override;
  void release_workspace(const std::filesystem::path& workspace) override;
  /// Starts the server that would check `file`, waits until it is ready and has analysed the file
  /// once (benchmarks and tests); the name of the server, or an error when none can be started.
  /// With Silence::means_waiting the file should hold an error, so that even a server that is
  /// silent about clean files answers once it has really analysed it.
  Expected<std::string> warm_up(const std::filesystem::path& file, const std::filesystem::path& workspace,
                                const std::vector<std::string>& environment, std::chrono::milliseconds timeout,
                                Silence silence = Silence::means_clean);
  /// The warm servers (tests and the benchmark look at them and shut them down).
  ServerPool& pool() { return m_pool; }

 private:
  /// Problems before and after an edit, as one checker saw them (paths workspace-relative).
  struct Comparison {
    std::vector<Problem> before;
    std::vector<Problem> after;
    bool compared = false;     // `before` is known
    bool errors_only = false;  // `before` holds errors only (a go build baseline)
  };
  /// The last check of a file: its content's hash and what the checker saw then.
  struct LastCheck {
    std::string checker;
    std::string content_sha256;
    std::vector<Problem> problems;
  };
  /// A server's answer, or why there is none.
  struct ServerOutcome {
    std::optional<Comparison> comparison;
    bool timed_out = false;
    std::string failure;
  };

  /// What was tried before a linter answered: notes for the report, and a server that was abandoned.
  struct Attempts {
    std::vector<std::string> notes;
    std::string abandoned_by;
  };

  bool try_servers(const EditCheckRequest& request, Language language, const std::filesystem::path& root,
                   const std::optional<LinterCommand>& linter, std::chrono::steady_clock::time_point deadline,
                   EditDiagnostics& result, Attempts& attempts);
  void label_as_the_compiler(Comparison& comparison, const LinterCommand& compiler, const EditCheckRequest& request,
                             const std::filesystem::path& root, std::chrono::steady_clock::time_point deadline);
  void adopt(LanguageServer& server, const std::filesystem::path& root, const HiddenPath& hidden);
  std::chrono::milliseconds linter_reserve(const LanguageServer& server, const LinterCommand& linter,
                                           const std::filesystem::path& root) const;
  void use_linter(const LinterCommand& linter, const EditCheckRequest& request, Language language,
                  const std::filesystem::path& root, std::chrono::steady_clock::time_point deadline,
                  EditDiagnostics& result);
  std::vector<RelatedDocument> importers_to_open(const LanguageServer& server, const EditCheckRequest& request,
                                                 const std::filesystem::path& root, const FolderSurvey& disk);
  ServerOutcome check_with_server(LanguageServer& server, const EditCheckRequest& request, Language language,
                                  std::chrono::steady_clock::time_point deadline,
                                  const std::vector<RelatedDocument>& importers);
  std::optional<Comparison> check_with_linter(const LinterCommand& linter, const EditCheckRequest& request,
                                              Language language, const std::filesystem::path& root,
                                              std::chrono::steady_clock::time_point deadline);
  std::optional<std::vector<Problem>> linter_baseline(const EditCheckRequest& request, Language language,
                                                      const std::filesystem::path& root,
                                                      std::chrono::steady_clock::time_point deadline,
                                                      bool& errors_only);
  void finish(EditDiagnostics& result, const EditCheckRequest& request, Comparison comparison);
  std::string server_version(const LanguageServer& server, const EditCheckRequest& request);
  std::string program_version(const std::vector<std::string>& version_argv, const EditCheckRequest& request);

  std::mutex m_mutex;  // one check at a time: attempts running in parallel share the servers
  ServerPool m_pool;
  std::map<std::string, std::string> m_versions;  // program -> first line of its --version
  std::map<std::string, LastCheck> m_last;        // absolute file -> its last check
  /// A warm server's checks left unanswered in a row, and what it had said by the last of them.
  struct Unanswered {
    int checks = 0;
    std::uint64_t messages_then = 0;
  };
  std::map<LanguageServer*, Unanswered> m_timeouts;  // consecutive timeouts of a warm server
  std::map<std::filesystem::path, ImportIndex> m_imports;  // project root -> which of its files import which
  // project root -> warning ("-Wname") -> whether its compiler reported it as an error (-pedantic-errors)
  std::map<std::filesystem::path, std::map<std::string, bool>> m_compiler_errors;
  // (linter, project root) -> how long its last check took there (both runs, when a baseline ran)
  std::map<std::pair<std::string, std::filesystem::path>, std::chrono::milliseconds> m_linter_took;
};

}  // namespace agent_run
