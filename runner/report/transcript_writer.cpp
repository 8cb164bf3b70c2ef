#include "report/transcript_writer.h"

namespace agent_run {

TranscriptWriter::TranscriptWriter(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  m_file = std::fopen(path.c_str(), "w");
}

TranscriptWriter::~TranscriptWriter() {
  if (m_file) std::fclose(m_file);
}

void TranscriptWriter::record(const Json& event) {
  if (!m_file) return;
  std::string line = event.dump();
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), m_file);
  std::fflush(m_file);
}

}  // namespace agent_run
