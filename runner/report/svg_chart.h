#pragma once

#include <string>
#include <vector>

namespace agent_run {

/// One row of a bar chart.
struct ChartBar {
  std::string label;
  double value = 0;
  std::string value_text;         // what the row says at its end (`67%`, `$0.41`)
  std::string css_class = "bar";  // the bar's colour: bar | pass | fail | error | skip
};

/// A horizontal bar chart as inline SVG (no script, no external reference): a row per bar with its
/// label (cut when long; the whole label as a tooltip), the bar scaled to `max` (the largest value
/// when `max` is 0) and its value text. `title` names the chart for screen readers.
std::string svg_bar_chart(const std::string& title, const std::vector<ChartBar>& bars, double max = 0);

/// One bar split into parts (attempts by outcome), each part's share of the width, with a legend.
std::string svg_stacked_bar(const std::string& title, const std::vector<ChartBar>& parts);

}  // namespace agent_run
