#pragma once

#include "base/expected.h"
#include "report/edit_diagnostics.h"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// What the project gate's checkers found in baseline trees, kept as one JSON file per key in a
/// folder (agent-run's cache, outside every workspace), so that repeats, the other attempts of a
/// task and later runs do not check the same tree with the same checker twice. The key is made by
/// the gate (batch/project_gate); only a checker that ran to the end is stored.
class BaselineCache {
 public:
  /// `folder` is made when the first result is stored; empty: nothing is kept across runs (the
  /// run's own attempts still share what this object found).
  explicit BaselineCache(std::filesystem::path folder) : m_folder(std::move(folder)) {}

  /// What was stored under `key`, or nullopt (also when its file cannot be read).
  std::optional<std::vector<Problem>> find(const std::string& key) const;
  /// Stores `problems` under `key`, `about` saying in the file what was checked (atomically: a
  /// reader sees the old file or the new one). This run keeps them whatever happens; an error when
  /// the file could not be written (the cache is an aid: the caller warns, and goes on).
  Expected<void> store(const std::string& key, const std::string& about, const std::vector<Problem>& problems);
  /// Held while one attempt computes `key`, so that attempts running in parallel (-j) wait for it
  /// instead of running the same checker on the same tree.
  std::unique_lock<std::mutex> hold(const std::string& key);

  /// The version a checker printed, asked once per run: `argv` (joined) to its first line.
  std::optional<std::string> known_version(const std::string& argv) const;
  void remember_version(const std::string& argv, const std::string& version);

  const std::filesystem::path& folder() const { return m_folder; }

 private:
  std::filesystem::path m_folder;
  mutable std::mutex m_mutex;  // guards the maps below
  std::map<std::string, std::unique_ptr<std::mutex>> m_holds;
  std::map<std::string, std::vector<Problem>> m_found;  // this run's, when the folder is empty or unwritable
  std::map<std::string, std::string> m_versions;
};

}  // namespace agent_run
