#include "base/digest.h"

#include <Poco/DigestEngine.h>
#include <Poco/SHA2Engine.h>

namespace agent_run {

std::string sha256_hex(std::string_view content) {
  Poco::SHA2Engine engine(Poco::SHA2Engine::SHA_256);
  engine.update(content.data(), static_cast<unsigned>(content.size()));
  return Poco::DigestEngine::digestToHex(engine.digest());
}

}  // namespace agent_run
