#include "report/svg_chart.h"

#include "report/html_text.h"

#include <algorithm>
#include <charconv>

namespace agent_run {

namespace {

constexpr int k_width = 360;  // about the width a chart is shown at, so 11px text stays 11px
constexpr int k_label_width = 120;
constexpr int k_value_width = 60;
constexpr int k_stacked_width = 1000;  // the outcome bar spans the page
constexpr int k_row_height = 20;
constexpr std::size_t k_label_characters = 18;  // what k_label_width holds at 11px

std::string number(double value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 1);
  return ec == std::errc() ? std::string(buffer, end) : "0";
}

/// At most k_label_characters code points of `label`, with `…` when cut.
std::string short_label(const std::string& label) {
  std::size_t characters = 0;
  for (std::size_t i = 0; i < label.size(); ++i) {
    if ((static_cast<unsigned char>(label[i]) & 0xC0) == 0x80) continue;
    if (++characters > k_label_characters) return label.substr(0, i) + "\xE2\x80\xA6";
  }
  return label;
}

std::string svg_open(const std::string& title, int width, int height) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + std::to_string(width) + " " +
         std::to_string(height) + "\" width=\"100%\" role=\"img\" aria-label=\"" + html_attribute(title) + "\">";
}

}  // namespace

std::string svg_bar_chart(const std::string& title, const std::vector<ChartBar>& bars, double max) {
  for (const ChartBar& bar : bars) max = std::max(max, bar.value);
  int track = k_width - k_label_width - k_value_width;
  std::string svg = svg_open(title, k_width, std::max<int>(1, static_cast<int>(bars.size())) * k_row_height);
  int y = 0;
  for (const ChartBar& bar : bars) {
    double length = max > 0 ? std::clamp(bar.value / max, 0.0, 1.0) * track : 0;
    std::string middle = std::to_string(y + 14);
    svg += "<g><title>" + html_text(bar.label + ": " + bar.value_text) + "</title>";
    svg += "<text x=\"0\" y=\"" + middle + "\">" + html_text(short_label(bar.label)) + "</text>";
    svg += "<rect class=\"track\" x=\"" + std::to_string(k_label_width) + "\" y=\"" + std::to_string(y + 4) +
           "\" width=\"" + std::to_string(track) + "\" height=\"12\" rx=\"2\"/>";
    svg += "<rect class=\"" + html_attribute(bar.css_class) + "\" x=\"" + std::to_string(k_label_width) + "\" y=\"" +
           std::to_string(y + 4) + "\" width=\"" + number(length) + "\" height=\"12\" rx=\"2\"/>";
    svg += "<text class=\"value\" x=\"" + std::to_string(k_width - k_value_width + 6) + "\" y=\"" + middle + "\">" +
           html_text(bar.value_text) + "</text></g>";
    y += k_row_height;
  }
  return svg + "</svg>";
}

std::string svg_stacked_bar(const std::string& title, const std::vector<ChartBar>& parts) {
  double total = 0;
  for (const ChartBar& part : parts) total += std::max(0.0, part.value);
  std::string svg = svg_open(title, k_stacked_width, 40);
  double x = 0;
  double legend_x = 0;
  for (const ChartBar& part : parts) {
    double width = total > 0 ? std::max(0.0, part.value) / total * k_stacked_width : 0;
    std::string text = part.label + " " + part.value_text;
    if (width > 0) {
      svg += "<rect class=\"" + html_attribute(part.css_class) + "\" x=\"" + number(x) + "\" y=\"0\" width=\"" +
             number(width) + "\" height=\"16\"><title>" + html_text(text) + "</title></rect>";
    }
    svg += "<rect class=\"" + html_attribute(part.css_class) + "\" x=\"" + number(legend_x) +
           "\" y=\"26\" width=\"10\" height=\"10\" rx=\"2\"/><text x=\"" + number(legend_x + 14) + "\" y=\"35\">" +
           html_text(text) + "</text>";
    x += width;
    legend_x += 16 + 7.0 * static_cast<double>(text.size()) + 14;
  }
  return svg + "</svg>";
}

}  // namespace agent_run
