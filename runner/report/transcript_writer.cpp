#include "report/transcript_writer.h"

#include <cerrno>
#include <cstring>

namespace agent_run {

TranscriptWriter::TranscriptWriter(const std::filesystem::path& path) : m_path(path) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  m_file = std::fopen(path.c_str(), "w");
  if (!m_file) m_failure = "cannot open " + path.string() + ": " + std::strerror(errno);
}

TranscriptWriter::~TranscriptWriter() { (void)close(); }  // close() was asked already, or nobody asks

void TranscriptWriter::record(const Json& event) {
  if (!m_file) return;
  std::string line = event.dump();
  line += '\n';
  if (std::fwrite(line.data(), 1, line.size(), m_file) != line.size() || std::fflush(m_file) != 0) {
    if (m_failure.empty()) m_failure = "cannot write " + m_path.string() + ": " + std::strerror(errno);
  }
}

Expected<void> TranscriptWriter::close() {
  if (m_file) {
    const bool closed = std::fclose(m_file) == 0;
    m_file = nullptr;
    if (!closed && m_failure.empty()) m_failure = "cannot write " + m_path.string() + ": " + std::strerror(errno);
  }
  if (!m_failure.empty()) return make_error(m_failure);
  return {};
}

}  // namespace agent_run
