#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace agent_run {

/// Lower-case hexadecimal SHA-256 of `content`: content hashes of policy and task files.
std::string sha256_hex(std::string_view content);

/// SHA-256 of content that arrives in pieces (a file read a page at a time): same digest as sha256_hex.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view piece);
  /// Lower-case hexadecimal digest of everything given so far; call once, at the end.
  std::string hex();

 private:
  struct Engine;
  std::unique_ptr<Engine> m_engine;
};

}  // namespace agent_run
