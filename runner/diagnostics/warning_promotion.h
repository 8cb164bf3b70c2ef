#pragma once

#include <set>
#include <string>
#include <vector>

namespace agent_run {

/// Which warnings a C or C++ compiler turns into errors by its flags (-Werror, -Werror=NAME,
/// -Wno-error=NAME, -pedantic-errors). clangd shows such a warning as a warning, while the build
/// fails on it: the per-edit check labels it as the compiler will.
class WarningPromotion {
 public:
  explicit WarningPromotion(const std::vector<std::string>& flags);

  /// Whether any warning may be an error under these flags.
  bool any() const { return m_all || m_pedantic || !m_named.empty(); }
  /// Whether the flags alone make a warning with `code` ("-Wname") an error.
  bool promotes(const std::string& code) const;
  /// Whether only the compiler can tell: -pedantic-errors makes the warnings about extensions to the
  /// standard errors, and a language server's warning does not say whether it is one.
  bool needs_compiler(const std::string& code) const;

 private:
  bool m_all = false;       // -Werror
  bool m_pedantic = false;  // -pedantic-errors
  std::set<std::string> m_named;    // -Werror=NAME
  std::set<std::string> m_exempt;   // -Wno-error=NAME
};

/// The warning's "-Wname" from a compiler's code ("-Werror,-Wname" from clang, "-Wname" from gcc);
/// empty when the code names no warning.
std::string warning_name(const std::string& code);

}  // namespace agent_run
