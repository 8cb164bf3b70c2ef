#pragma once

#include "workspace/workspace_spec.h"

#include <optional>
#include <string>

namespace agent_run {

/// A reason `spec` cannot make a workspace, found before anything runs, and the key it is about.
struct WorkspaceProblem {
  enum class Key { repo, ref } key;
  std::string message;
};

/// Why Workspace::prepare would refuse `spec` (`repo` missing, not a folder, not a repository for
/// its isolation; `ref` naming no commit of the repository), or nullopt when it would not.
/// Implemented beside Workspace::prepare (workspace.cpp), whose checks it shares.
std::optional<WorkspaceProblem> workspace_problem(const WorkspaceSpec& spec);

}  // namespace agent_run
