#include "diagnostics/warning_promotion.h"

namespace agent_run {

WarningPromotion::WarningPromotion(const std::vector<std::string>& flags) {
  for (const std::string& flag : flags) {  // later flags win, as for the compiler
    if (flag == "-Werror") {
      m_all = true;
    } else if (flag == "-Wno-error") {
      m_all = false;
    } else if (flag == "-pedantic-errors") {
      m_pedantic = true;
    } else if (flag.rfind("-Werror=", 0) == 0) {
      std::string name = "-W" + flag.substr(8);
      m_named.insert(name);
      m_exempt.erase(name);
    } else if (flag.rfind("-Wno-error=", 0) == 0) {
      std::string name = "-W" + flag.substr(11);
      m_exempt.insert(name);
      m_named.erase(name);
    }
  }
}

bool WarningPromotion::promotes(const std::string& code) const {
  std::string name = warning_name(code);
  if (name.empty() || m_exempt.count(name)) return false;
  return m_all || m_named.count(name) > 0;
}

bool WarningPromotion::needs_compiler(const std::string& code) const {
  std::string name = warning_name(code);
  return m_pedantic && !name.empty() && !promotes(code) && !m_exempt.count(name);
}

std::string warning_name(const std::string& code) {
  std::string name = code.substr(code.rfind(',') == std::string::npos ? 0 : code.rfind(',') + 1);
  if (name.rfind("-W", 0) != 0 || name.size() < 3 || name == "-Werror") return {};
  return name;
}

}  // namespace agent_run
