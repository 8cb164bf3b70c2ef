// The survey with the policy's classifier (which matches walked paths as written and looks at few
// entries) against a brute-force survey: every path of a generated tree with symbolic and hard
// links looked at and classified by classify_path. A faster walk must not miss one hidden or
// read-only name.
#include "exec/mount_survey.h"
#include "policy/path_classes.h"
#include "policy/policy_loader.h"
#include "support/fixtures.h"

#include <sys/stat.h>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace agent_run;
using agent_run::test::TempFolder;

namespace {

namespace fs = std::filesystem;

const char* const k_policy = R"(version: 1
rules:
  - id: secrets
    deny: [read_file, glob, grep, edit_file, write_file, bash]
    paths: [".env", "*.pem", "id_rsa*", "vault/**"]
  - id: deep-keys
    deny: [read_file, bash]
    paths: ["**/keys/*.txt", "//OUTSIDE/private/**"]
  - id: ci-config
    deny: [edit_file, write_file]
    paths: [".github/**", "build.cfg"]
  - id: grep-only
    deny: grep
    paths: ["logs/**"]
)";

const std::vector<std::string> k_names = {"a.txt", ".env", "server.pem", "id_rsa", "keys", "vault", ".github",
                                          "build.cfg", "logs", "src", "notes.md", "private", ".git", "b.py"};

/// Survey entries as name -> rule, one map per class.
struct Classes {
  std::map<std::string, std::string> hidden;
  std::map<std::string, std::string> read_only;
};

/// A random tree under `root`: folders and files named from k_names, symbolic links (to files and
/// folders inside, to the outside folder, dangling) and hard links (to hidden and plain files).
void grow(std::mt19937& random, const fs::path& root, const fs::path& outside) {
  std::vector<fs::path> folders{root};
  std::vector<fs::path> files;
  auto pick = [&](const auto& list) { return list[random() % list.size()]; };
  for (int step = 0; step < 220; ++step) {
    const fs::path folder = pick(folders);
    const fs::path path = folder / (pick(k_names) + (random() % 3 == 0 ? std::to_string(step) : ""));
    std::error_code ec;
    if (fs::symlink_status(path, ec).type() != fs::file_type::not_found) continue;
    switch (random() % 8) {
      case 0:
      case 1: fs::create_directory(path, ec); folders.push_back(path); break;
      case 2:
        if (!files.empty()) fs::create_hard_link(pick(files), path, ec);
        break;
      case 3:
        if (!files.empty()) fs::create_symlink(pick(files), path, ec);
        break;
      case 4: fs::create_directory_symlink(random() % 2 ? pick(folders) : outside, path, ec); break;
      case 5: fs::create_symlink(folder / "missing", path, ec); break;
      default: std::ofstream(path) << "x\n"; files.push_back(path);
    }
  }
}

/// What survey_paths must find, worked out the slow way: every entry looked at and classified by
/// classify_path on its absolute path, every regular file's identity compared.
class BruteForce {
 public:
  BruteForce(const Policy& policy, const DecisionContext& context, const Survey* previous)
      : m_policy(policy), m_context(context), m_previous(previous) {}

  Classes survey(const fs::path& workspace) {
    walk(workspace, workspace, true);
    for (const fs::path& target : std::vector<fs::path>(m_targets)) walk(target, workspace, false);
    for (const auto& [identity, names] : m_plain) {
      auto& into = m_hidden_ids.count(identity) ? m_classes.hidden : m_classes.read_only;
      if (!m_hidden_ids.count(identity) && !m_read_only_ids.count(identity)) continue;
      for (const std::string& name : names) into[name] = "another name";
    }
    return m_classes;
  }

 private:
  void walk(const fs::path& root, const fs::path& workspace, bool inside) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path path = it->path();
      const std::string shown = inside ? path.lexically_relative(workspace).generic_string() : path.string();
      const PathVerdict verdict = classify_path(m_policy, path.string(), m_context);
      struct stat status {};
      BOOST_REQUIRE(::lstat(path.c_str(), &status) == 0);
      const FileIdentity identity{status.st_dev, status.st_ino};
      if (S_ISLNK(status.st_mode)) {
        link(path, shown, verdict, workspace, inside);
      } else if (verdict.kind == PathClass::plain && S_ISREG(status.st_mode) && m_previous &&
                 m_previous->hidden_files.count(identity)) {
        m_classes.hidden[shown] = "moved";
        m_hidden_ids.insert(identity);
      } else if (verdict.kind == PathClass::hidden) {
        m_classes.hidden[shown] = verdict.rule;
        if (S_ISREG(status.st_mode)) m_hidden_ids.insert(identity);
      } else if (verdict.kind == PathClass::read_only) {
        m_classes.read_only[shown] = verdict.rule;
        if (S_ISREG(status.st_mode)) m_read_only_ids.insert(identity);
      } else if (S_ISREG(status.st_mode) && status.st_nlink > 1) {
        m_plain[identity].push_back(shown);
      }
      if (S_ISDIR(status.st_mode) && verdict.kind == PathClass::hidden) note_files_in_hidden_folder(path);
      const bool whole = verdict.kind == PathClass::hidden || path.filename() == ".git";
      if (S_ISDIR(status.st_mode) && whole) it.disable_recursion_pending();
    }
  }

  /// A hidden folder is masked whole, but each regular file in it is hidden content: its other names
  /// elsewhere are hidden too.
  void note_files_in_hidden_folder(const fs::path& folder) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      struct stat status {};
      if (::lstat(it->path().c_str(), &status) == 0 && S_ISREG(status.st_mode)) {
        m_hidden_ids.insert(FileIdentity{status.st_dev, status.st_ino});
      }
    }
  }

  void link(const fs::path& path, const std::string& shown, const PathVerdict& verdict, const fs::path& workspace,
            bool inside) {
    std::error_code ec;
    const fs::path target = fs::canonical(path, ec);
    if (ec) return;  // dangling: no content to mask
    if (verdict.kind == PathClass::hidden) {
      m_classes.hidden[shown] = verdict.rule;
      struct stat status {};
      if (::stat(target.c_str(), &status) == 0 && S_ISREG(status.st_mode)) {
        m_hidden_ids.insert(FileIdentity{status.st_dev, status.st_ino});
      }
      return;
    }
    const std::string text = target.string(), root = workspace.string();
    const bool outside = !(text == root || text.starts_with(root + "/"));
    if (inside && outside && fs::is_directory(target, ec)) m_targets.push_back(target);
  }

  const Policy& m_policy;
  const DecisionContext& m_context;
  const Survey* m_previous;
  Classes m_classes;
  std::set<FileIdentity> m_hidden_ids, m_read_only_ids;
  std::map<FileIdentity, std::vector<std::string>> m_plain;
  std::vector<fs::path> m_targets;
};

Classes classes_of(const Survey& survey) {
  Classes classes;
  for (const SurveyedPath& path : survey.hidden) classes.hidden[path.relative] = path.rule;
  for (const SurveyedPath& path : survey.read_only) classes.read_only[path.relative] = path.rule;
  return classes;
}

/// The names of both maps must agree; so must the rule of every name a rule itself classified.
void require_same(const std::map<std::string, std::string>& surveyed, const std::map<std::string, std::string>& brute,
                  const std::string& what, std::uint32_t seed) {
  std::set<std::string> a, b;
  for (const auto& [name, rule] : surveyed) a.insert(name);
  for (const auto& [name, rule] : brute) b.insert(name);
  for (const std::string& name : b) BOOST_CHECK_MESSAGE(a.count(name), "seed " << seed << ": " << what << " missed " << name);
  for (const std::string& name : a) BOOST_CHECK_MESSAGE(b.count(name), "seed " << seed << ": " << what << " extra " << name);
  for (const auto& [name, rule] : brute) {
    if (rule == "another name" || rule == "moved" || !surveyed.count(name)) continue;
    BOOST_CHECK_MESSAGE(surveyed.at(name) == rule, "seed " << seed << ": " << name << " by " << surveyed.at(name)
                                                           << ", brute force " << rule);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(path_classifier_properties)

BOOST_AUTO_TEST_CASE(survey_finds_what_classifying_every_path_finds_on_trees_with_links) {
  std::size_t compared = 0;
  for (std::uint32_t seed : {1u, 7u, 42u, 1001u, 65537u, 31337u}) {
    TempFolder workspace(agent_run::test::visible_scratch());
    TempFolder outside(agent_run::test::visible_scratch());
    std::string policy_text = k_policy;
    policy_text.replace(policy_text.find("OUTSIDE"), 7, outside.path().string().substr(1));
    const fs::path policy_file = workspace.write("policy.yaml", policy_text);
    workspace.write("task.yaml", "prompt: x\n");
    outside.write("private/key.txt", "outside secret\n");
    outside.write("plain/.env", "outside env\n");
    outside.write("plain/readme", "plain\n");
    std::mt19937 random(seed);
    grow(random, workspace.path(), outside.path());
    Expected<Policy> policy = load_policy_file(policy_file);
    BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
    DecisionContext context;
    context.workspace = workspace.path();
    context.protected_paths = {workspace.path() / "task.yaml"};
    context.sandboxed = true;
    SurveyRequest request;
    request.workspace = fs::canonical(workspace.path());
    request.classify = path_classifier(*policy, context, SurveyedText::absolute);
    Expected<Survey> first = survey_paths(request);
    BOOST_REQUIRE(first.has_value());
    Classes brute = BruteForce(*policy, context, nullptr).survey(request.workspace);
    require_same(classes_of(*first).hidden, brute.hidden, "hidden", seed);
    require_same(classes_of(*first).read_only, brute.read_only, "read-only", seed);
    compared += brute.hidden.size() + brute.read_only.size();

    // What the agent does next: a hidden file moved to a plain name, another given a second name,
    // one removed; the next survey (the late masks') reads the first one's identities.
    std::vector<fs::path> hidden_files;
    for (const SurveyedPath& path : first->hidden) {
      if (!path.folder && path.relative[0] != '/' && fs::is_regular_file(fs::symlink_status(path.absolute))) {
        hidden_files.push_back(path.absolute);
      }
    }
    if (hidden_files.size() >= 3) {
      std::error_code ec;
      fs::rename(hidden_files[0], request.workspace / ("moved-" + std::to_string(seed)), ec);
      fs::create_hard_link(hidden_files[1], request.workspace / ("second-" + std::to_string(seed)), ec);
      fs::remove(hidden_files[2], ec);
    }
    request.previous = &*first;
    Expected<Survey> second = survey_paths(request);
    BOOST_REQUIRE(second.has_value());
    Classes brute_after = BruteForce(*policy, context, &*first).survey(request.workspace);
    require_same(classes_of(*second).hidden, brute_after.hidden, "hidden after moves", seed);
    require_same(classes_of(*second).read_only, brute_after.read_only, "read-only after moves", seed);
    compared += brute_after.hidden.size();
  }
  BOOST_TEST_MESSAGE("compared " << compared << " classified names");
  BOOST_TEST(compared > 200u);
}

BOOST_AUTO_TEST_CASE(survey_classifier_gives_classify_paths_verdict_for_every_walked_path) {
  TempFolder workspace(agent_run::test::visible_scratch());
  TempFolder outside(agent_run::test::visible_scratch());
  std::string policy_text = k_policy;
  policy_text.replace(policy_text.find("OUTSIDE"), 7, outside.path().string().substr(1));
  const fs::path policy_file = workspace.write("policy.yaml", policy_text);
  std::mt19937 random(5);
  grow(random, workspace.path(), outside.path());
  Expected<Policy> policy = load_policy_file(policy_file);
  BOOST_REQUIRE(policy.has_value());
  DecisionContext context;
  context.workspace = workspace.path();
  std::size_t checked = 0;
  const fs::path root = fs::canonical(workspace.path());
  for (SurveyedText text : {SurveyedText::absolute, SurveyedText::relative_inside}) {
    PathClassifier classify = path_classifier(*policy, context, text);
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string relative = it->path().lexically_relative(root).generic_string();
      const bool link = it->is_symlink();
      const PathForm form = link ? PathForm::may_resolve : PathForm::as_written;
      const std::string written = text == SurveyedText::absolute ? it->path().string() : relative;
      BOOST_CHECK_MESSAGE(classify(it->path().string(), relative, form) == classify_path(*policy, written, context),
                          relative);
      ++checked;
    }
  }
  BOOST_TEST(checked > 100u);
}

BOOST_AUTO_TEST_SUITE_END()
