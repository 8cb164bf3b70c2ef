#include "base/yaml_document.h"
#include "policy/stock_policies.h"

#include <set>

namespace agent_run {

namespace {

/// The ids of the `rules:` of a policy document.
std::set<std::string> rule_ids(const YamlNode& root) {
  std::set<std::string> ids;
  const YamlNode* rules = root.find("rules");
  if (!rules || !rules->is_sequence()) return ids;
  for (const YamlNode& rule : rules->items) {
    const YamlNode* id = rule.is_map() ? rule.find("id") : nullptr;
    if (id && id->is_scalar()) ids.insert(id->scalar);
  }
  return ids;
}

}  // namespace

std::map<std::string, std::string> stock_rule_origins(std::string_view yaml_text) {
  std::map<std::string, std::string> origins;
  YamlDocument document = parse_yaml(yaml_text);
  const YamlNode* extends = document.root && document.root->is_map() ? document.root->find("extends") : nullptr;
  const char* stock = extends && extends->is_scalar() ? stock_policy_text(extends->scalar) : nullptr;
  if (!stock) return origins;
  YamlDocument base = parse_yaml(stock);
  if (!base.root) return origins;
  const std::set<std::string> own = rule_ids(*document.root);
  for (const std::string& id : rule_ids(*base.root)) {
    if (!own.count(id)) origins[id] = "stock policy '" + extends->scalar + "'";
  }
  return origins;
}

}  // namespace agent_run
