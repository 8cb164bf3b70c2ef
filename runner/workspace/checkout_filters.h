#pragma once

#include "workspace/git_handles.h"

namespace agent_run {

/// Whether checking out HEAD of `repository` may skip libgit2's filters because they would change
/// nothing: no attributes anywhere (no .gitattributes in HEAD's tree, no info/attributes, no
/// core.attributesFile, no user or system attributes file) and core.autocrlf not true. Then no
/// line ending conversion, ident or filter driver applies, and skipping them saves an attribute
/// lookup (a realpath of the file's path) per file: about 30% of a worktree's creation.
bool checkout_filters_are_no_ops(git_repository* repository);

}  // namespace agent_run
