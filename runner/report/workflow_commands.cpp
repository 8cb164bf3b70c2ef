#include "report/workflow_commands.h"

#include "report/xml_text.h"

namespace agent_run {

namespace {

std::string escape_for_command(std::string_view text, bool property) {
  std::string printable = xml_printable(text);
  std::string out;
  out.reserve(printable.size());
  for (char c : printable) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c; break;
    }
  }
  return out;
}

}  // namespace

std::string command_data(std::string_view text) { return escape_for_command(text, false); }

std::string command_property(std::string_view text) { return escape_for_command(text, true); }

std::string annotation_command(const Annotation& annotation) {
  std::string properties;
  auto add = [&](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    properties += (properties.empty() ? " " : ",") + std::string(name) + "=" + command_property(value);
  };
  bool on_a_line = !annotation.file.empty() && annotation.line > 0;  // a line means nothing without its file
  add("file", annotation.file);
  if (on_a_line) add("line", std::to_string(annotation.line));
  if (on_a_line && annotation.column > 0) add("col", std::to_string(annotation.column));
  add("title", annotation.title);
  return "::" + annotation.level + properties + "::" + command_data(annotation.message);
}

}  // namespace agent_run
