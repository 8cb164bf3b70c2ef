#include "batch/baseline_cache.h"

#include "base/files.h"
#include "base/json.h"
#include "report/problem_json.h"

namespace agent_run {

namespace {

constexpr int k_format = 1;

}  // namespace

std::optional<std::vector<Problem>> BaselineCache::find(const std::string& key) const {
  {
    std::lock_guard lock(m_mutex);
    if (auto found = m_found.find(key); found != m_found.end()) return found->second;
  }
  if (m_folder.empty()) return std::nullopt;
  auto text = read_file(m_folder / (key + ".json"));
  auto json = text ? parse_json(*text) : Expected<Json>(make_error("none"));
  if (!json || !json->is_object()) return std::nullopt;
  const Json* format = json->find("format");
  const Json* problems = json->find("problems");
  if (!format || !format->is_integer() || format->as_int() != k_format || json->get_string("key") != key ||
      !problems || !problems->is_array()) {
    return std::nullopt;
  }
  std::vector<Problem> read;
  for (const Json& item : problems->as_array()) {
    auto problem = problem_from_json(item);
    if (!problem) return std::nullopt;
    read.push_back(std::move(*problem));
  }
  return read;
}

Expected<void> BaselineCache::store(const std::string& key, const std::string& about,
                                    const std::vector<Problem>& problems) {
  {
    std::lock_guard lock(m_mutex);
    m_found[key] = problems;
  }
  if (m_folder.empty()) return {};
  Json list = Json::array();
  for (const Problem& problem : problems) list.push(problem_to_json(problem));
  Json file = Json::object().set("format", k_format).set("key", key).set("checked", about).set("problems", list);
  std::error_code ec;
  std::filesystem::create_directories(m_folder, ec);
  const std::filesystem::path path = m_folder / (key + ".json");
  if (auto written = write_file_atomically(path, file.dump_pretty() + "\n"); !written) {
    return make_error("cannot store the baseline in the cache (" + path.string() + "): " + written.error().message);
  }
  return {};
}

std::unique_lock<std::mutex> BaselineCache::hold(const std::string& key) {
  std::mutex* held = nullptr;
  {
    std::lock_guard lock(m_mutex);
    auto& slot = m_holds[key];
    if (!slot) slot = std::make_unique<std::mutex>();
    held = slot.get();
  }
  return std::unique_lock(*held);
}

std::optional<std::string> BaselineCache::known_version(const std::string& argv) const {
  std::lock_guard lock(m_mutex);
  auto found = m_versions.find(argv);
  if (found == m_versions.end()) return std::nullopt;
  return found->second;
}

void BaselineCache::remember_version(const std::string& argv, const std::string& version) {
  std::lock_guard lock(m_mutex);
  m_versions[argv] = version;
}

}  // namespace agent_run
