#include "exec/output_capture.h"

#include <algorithm>

namespace agent_run {

namespace {

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

OutputCapture::OutputCapture(std::size_t head_bytes, std::size_t tail_bytes)
    : m_head_capacity(head_bytes), m_tail_capacity(tail_bytes) {}

void OutputCapture::append(std::string_view bytes) {
  m_total += bytes.size();
  std::size_t to_head = std::min(bytes.size(), m_head_capacity - m_head.size());
  m_head.append(bytes.data(), to_head);
  if (to_head == bytes.size()) return;
  if (!m_byte_after_head) m_byte_after_head = bytes[to_head];
  m_tail.append(bytes.data() + to_head, bytes.size() - to_head);
  if (m_tail.size() > 2 * m_tail_capacity + 65536) {
    m_tail.erase(0, m_tail.size() - m_tail_capacity);
  }
}

std::string OutputCapture::text() const {
  if (m_total <= m_head_capacity + m_tail_capacity) return m_head + m_tail;
  std::size_t head_end = m_head.size();
  auto byte_at = [&](std::size_t i) { return i < m_head.size() ? m_head[i] : *m_byte_after_head; };
  while (head_end > 0 && is_continuation(byte_at(head_end))) --head_end;
  std::size_t tail_start = m_tail.size() - m_tail_capacity;
  while (tail_start < m_tail.size() && is_continuation(m_tail[tail_start])) ++tail_start;
  std::size_t omitted = m_total - head_end - (m_tail.size() - tail_start);
  std::string out = m_head.substr(0, head_end);
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "[... " + std::to_string(omitted) + " bytes omitted ...]\n";
  out.append(m_tail, tail_start, std::string::npos);
  return out;
}

}  // namespace agent_run
