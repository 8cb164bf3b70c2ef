#pragma once

#include "base/json.h"

#include <cstdio>
#include <filesystem>

namespace agent_run {

/// Appends one JSON object a line to an attempt's transcript.jsonl, flushed line by line so a
/// killed run keeps everything up to its last event. Writing is best effort: a transcript that
/// cannot be written never stops an attempt.
class TranscriptWriter {
 public:
  explicit TranscriptWriter(const std::filesystem::path& path);
  ~TranscriptWriter();
  TranscriptWriter(const TranscriptWriter&) = delete;
  TranscriptWriter& operator=(const TranscriptWriter&) = delete;

  void record(const Json& event);

 private:
  std::FILE* m_file = nullptr;
};

}  // namespace agent_run
