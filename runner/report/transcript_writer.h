#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <cstdio>
#include <filesystem>
#include <string>

namespace agent_run {

/// Appends one JSON object a line to an attempt's transcript.jsonl, flushed line by line so a
/// killed run keeps everything up to its last event. A write that fails never stops the agent: the
/// first failure is kept, and close() says it, so that the attempt is not reported with a transcript
/// that is not there, or is cut short.
class TranscriptWriter {
 public:
  explicit TranscriptWriter(const std::filesystem::path& path);
  ~TranscriptWriter();
  TranscriptWriter(const TranscriptWriter&) = delete;
  TranscriptWriter& operator=(const TranscriptWriter&) = delete;

  void record(const Json& event);
  /// Closes the file; an error when it could not be opened or a line could not be written.
  Expected<void> close();

 private:
  std::filesystem::path m_path;
  std::FILE* m_file = nullptr;
  std::string m_failure;  // the first write that failed: "cannot open PATH: ..."
};

}  // namespace agent_run
