#include "base/digest.h"

#include <Poco/DigestEngine.h>
#include <Poco/SHA2Engine.h>

namespace agent_run {

std::string sha256_hex(std::string_view content) {
  Poco::SHA2Engine engine(Poco::SHA2Engine::SHA_256);
  engine.update(content.data(), static_cast<unsigned>(content.size()));
  return Poco::DigestEngine::digestToHex(engine.digest());
}

struct Sha256::Engine {
  Poco::SHA2Engine sha{Poco::SHA2Engine::SHA_256};
};

Sha256::Sha256() : m_engine(std::make_unique<Engine>()) {}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view piece) { m_engine->sha.update(piece.data(), static_cast<unsigned>(piece.size())); }

std::string Sha256::hex() { return Poco::DigestEngine::digestToHex(m_engine->sha.digest()); }

}  // namespace agent_run
