// libFuzzer target for the server-sent events reader: whatever the lines, SseParser must not crash;
// every event it dispatches has a type; and the events written out again in the plainest form read
// back as the same events.
#include "fuzz_support.h"
#include "net/sse_parser.h"

#include <string>
#include <vector>

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

std::vector<SseEvent> events_of(const std::vector<std::string_view>& lines) {
  SseParser parser;
  std::vector<SseEvent> events;
  for (std::string_view line : lines) {
    if (auto event = parser.feed_line(line)) events.push_back(std::move(*event));
  }
  return events;
}

/// The events as a stream: `event:`, `id:` and one `data:` line per line of the data, each line
/// ended by CRLF (so a value that ends in a carriage return keeps it).
std::string written_again(const std::vector<SseEvent>& events) {
  std::string stream;
  for (const SseEvent& event : events) {
    stream += "event: " + event.event + "\r\n";
    if (!event.id.empty()) stream += "id: " + event.id + "\r\n";
    std::string_view data = event.data;
    for (std::string_view line : fuzz::lines_of(data)) stream += "data: " + std::string(line) + "\r\n";
    if (data.empty() || data.back() == '\n') stream += "data: \r\n";
    stream += "\r\n";
  }
  return stream;
}

bool same(const SseEvent& a, const SseEvent& b) { return a.event == b.event && a.data == b.data && a.id == b.id; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<SseEvent> events = events_of(fuzz::lines_of(fuzz::as_text(data, size)));
  for (const SseEvent& event : events) require(!event.event.empty());
  const std::string again = written_again(events);
  const std::vector<SseEvent> reread = events_of(fuzz::lines_of(again));
  require(reread.size() == events.size());
  for (std::size_t i = 0; i < events.size(); ++i) require(same(events[i], reread[i]));
  return 0;
}
