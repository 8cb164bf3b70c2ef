#include "search/grep_report.h"

namespace agent_run {

std::string cut_long_line(const std::string& line) {
  if (line.size() <= GrepReport::k_max_line_bytes) return line;
  std::size_t cut = GrepReport::k_max_line_bytes;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return line.substr(0, cut) + " [... line cut at " + std::to_string(cut) + " of " + std::to_string(line.size()) +
         " bytes]";
}

WalkStep GrepReport::add(GrepFile&& file) {
  if (m_more || m_full) return WalkStep::stop;
  if (m_request.output == GrepOutput::content) {
    add_lines(file);
  } else if (m_results == m_request.max_results) {
    m_more = true;
  } else {
    ++m_results;
    ++m_files;
    append(m_request.output == GrepOutput::count ? file.path + ":" + std::to_string(file.match_count) : file.path);
  }
  return m_more || m_full ? WalkStep::stop : WalkStep::go_on;
}

void GrepReport::add_lines(const GrepFile& file) {
  const bool with_context = m_request.before > 0 || m_request.after > 0;
  bool header_written = false;
  std::int64_t previous = 0;
  for (const GrepLine& line : file.lines) {
    if (line.is_match && m_results == m_request.max_results) {
      m_more = true;
      return;
    }
    if (!line.is_match && m_results == m_request.max_results && line.number > m_last_match + m_request.after) {
      continue;  // context of the match past the limit
    }
    if (!header_written) {
      if (m_files > 0) append("");
      append(file.path);
      header_written = true;
      ++m_files;
    } else if (with_context && line.number != previous + 1) {
      append("--");
    }
    if (line.is_match) {
      ++m_results;
      m_last_match = line.number;
    }
    append(std::to_string(line.number) + (line.is_match ? ":" : "-") + cut_long_line(line.text));
    previous = line.number;
    if (m_full) return;
  }
}

void GrepReport::append(const std::string& line) {
  if (m_full) return;
  if (m_out.size() + line.size() + 1 > k_max_output_bytes) {
    m_full = true;
    return;
  }
  m_out += line;
  m_out += '\n';
}

std::string GrepReport::text() const {
  if (m_files == 0 && !m_full) return "No matches found.\n";
  std::string text = m_out;
  const std::string max = std::to_string(m_request.max_results);
  if (m_full) {
    text += "[output cut at " + std::to_string(k_max_output_bytes) +
            " bytes; narrow the pattern, path or glob, or use output: files_with_matches]\n";
  } else if (m_more && m_request.output == GrepOutput::content) {
    text += "[only the first " + max +
            " matching lines are shown; narrow the pattern, path or glob, or raise max_results]\n";
  } else if (m_more) {
    text += "[only the first " + max + " files are shown; narrow the pattern, path or glob, or raise max_results]\n";
  }
  return text;
}

}  // namespace agent_run
