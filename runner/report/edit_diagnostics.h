#pragma once

#include <string>
#include <vector>

namespace agent_run {

/// One problem a checker found, in the one shape servers and linters share.
struct Problem {
  std::string path;         // relative to the workspace (absolute when outside it)
  int line = 0;             // 1-based
  int column = 0;           // 1-based
  std::string severity;     // error | warning
  std::string message;      // may hold continuation lines, separated by '\n'
  std::string code;         // the checker's code or rule, or its source; may be empty
  bool other_file = false;  // a neighbour of the edited file (a caller broken by a rename)

  friend bool operator==(const Problem&, const Problem&) = default;
};

/// What the diagnostics check of one edit found, for the model and for the report.
struct EditDiagnostics {
  std::string checker;  // gopls, pyright-langserver, go vet, pyflakes, ... (empty: none)
  std::string checker_version;
  std::string checker_kind;         // server | linter (empty when unavailable)
  std::string status;               // clean | problems | timeout | unavailable
  std::string note;                 // why unavailable, or what fell through (a server in cooldown, ...)
  std::vector<Problem> problems;    // after the edit: the edited file's and changed neighbours'
  std::vector<Problem> introduced;  // in `problems` but not before the edit
  std::vector<Problem> resolved;    // before the edit but not in `problems`
  bool compared = false;            // whether the state before the edit was known (else introduced = problems)
  long long duration_ms = 0;
};

}  // namespace agent_run
