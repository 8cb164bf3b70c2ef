#pragma once

#include "workspace/workspace.h"

#include <filesystem>
#include <string>
#include <vector>

namespace agent_run {

// The patch and the commit never carry a task's secret: the checks get the secrets, and what they
// (or the agent's tests they run) write into the workspace is in the tree the patch is taken from.

/// `filter`, and besides every changed regular file beneath `workspace` that holds one of `secrets`
/// (or is too large to be read and looked through): withheld from patch.diff and the commit alike.
PatchFilter withholding_secrets(PatchFilter filter, std::filesystem::path workspace, std::vector<std::string> secrets);

/// A patch with every secret value replaced by "[redacted]", and the files whose part held one.
struct RedactedPatch {
  std::string text;
  std::vector<std::string> files;  // as the patch names them (its `+++ b/` or `--- a/` path)
};

/// Redacts `patch` (a unified diff, `diff --git` sections) for `secrets`.
RedactedPatch redact_patch(const std::string& patch, const std::vector<std::string>& secrets);

}  // namespace agent_run
