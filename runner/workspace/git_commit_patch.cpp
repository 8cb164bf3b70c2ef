#include "workspace/git_repository.h"

#include <git2.h>

namespace agent_run {

namespace {

std::string hex_of(const git_oid& id) {
  char buffer[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buffer, sizeof buffer, &id);
  return buffer;
}

}  // namespace

Expected<std::string> GitRepository::commit_patch(const std::string& base, std::string_view patch,
                                                  const std::string& branch, const std::string& message) {
  int valid = 0;
  if (git_branch_name_is_valid(&valid, branch.c_str()) != 0 || !valid) {
    return make_error("'" + branch + "' is not a valid branch name");
  }
  if (base.empty()) return make_error("cannot commit to '" + branch + "': the repository had no commit to start from");
  std::string failure = "cannot commit the changes to the branch '" + branch + "' of '" + m_folder.string() + "'";
  auto tree = tree_of(base);
  if (!tree) return tree.error();
  git_diff* raw_diff = nullptr;
  if (git_diff_from_buffer(&raw_diff, patch.data(), patch.size()) != 0) return git_failure(failure);
  GitHandle<git_diff> diff(raw_diff);
  git_index* raw_index = nullptr;
  if (git_apply_to_tree(&raw_index, m_repository.get(), tree->get(), diff.get(), nullptr) != 0) {
    return git_failure(failure);
  }
  GitHandle<git_index> index(raw_index);
  git_oid tree_id;
  git_tree* raw_tree = nullptr;
  if (git_index_write_tree_to(&tree_id, index.get(), m_repository.get()) != 0 ||
      git_tree_lookup(&raw_tree, m_repository.get(), &tree_id) != 0) {
    return git_failure(failure);
  }
  GitHandle<git_tree> new_tree(raw_tree);
  git_oid base_id;
  git_commit* raw_parent = nullptr;
  git_signature* raw_signature = nullptr;
  if (git_oid_fromstr(&base_id, base.c_str()) != 0 ||
      git_commit_lookup(&raw_parent, m_repository.get(), &base_id) != 0 ||
      git_signature_now(&raw_signature, "agent-run", "agent-run@localhost") != 0) {
    return git_failure(failure);
  }
  GitHandle<git_commit> parent(raw_parent);
  GitHandle<git_signature> signature(raw_signature);
  const git_commit* parents[] = {parent.get()};
  git_oid commit_id;
  git_commit* raw_commit = nullptr;
  git_reference* raw_branch = nullptr;
  std::string text = message.empty() || message.back() == '\n' ? message : message + "\n";  // as git writes it
  if (git_commit_create(&commit_id, m_repository.get(), nullptr, signature.get(), signature.get(), nullptr,
                        text.c_str(), new_tree.get(), 1, parents) != 0 ||
      git_commit_lookup(&raw_commit, m_repository.get(), &commit_id) != 0) {
    return git_failure(failure);
  }
  GitHandle<git_commit> commit(raw_commit);
  std::unique_lock<std::mutex> guard(git_bookkeeping_lock());
  if (git_branch_create(&raw_branch, m_repository.get(), branch.c_str(), commit.get(), 1) != 0) {
    return git_failure(failure);
  }
  guard.unlock();
  GitHandle<git_reference> created(raw_branch);
  return hex_of(commit_id);
}

Expected<std::vector<std::string>> GitRepository::worktree_names() const {
  git_strarray names{};
  if (git_worktree_list(&names, m_repository.get()) != 0) {
    return git_failure("cannot list the worktrees of '" + m_folder.string() + "'");
  }
  std::vector<std::string> out(names.strings, names.strings + names.count);
  git_strarray_dispose(&names);
  return out;
}

bool GitRepository::worktree_is_valid(const std::string& name) const {
  git_worktree* raw = nullptr;
  if (git_worktree_lookup(&raw, m_repository.get(), name.c_str()) != 0) return false;
  GitHandle<git_worktree> worktree(raw);
  return git_worktree_validate(worktree.get()) == 0;
}

std::filesystem::path GitRepository::common_folder() const { return git_repository_commondir(m_repository.get()); }

}  // namespace agent_run
