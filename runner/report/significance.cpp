#include "report/significance.h"

#include <algorithm>
#include <cmath>

namespace agent_run {

namespace {

double log_choose(int n, int k) { return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0); }

/// P(X = x) for X the passes among `draws` of `total` attempts of which `passes` passed.
double hypergeometric(int total, int passes, int draws, int x) {
  if (x < 0 || x > draws || x > passes || draws - x > total - passes) return 0.0;
  return std::exp(log_choose(passes, x) + log_choose(total - passes, draws - x) - log_choose(total, draws));
}

/// The chance of `head_passed` or fewer (`lower`) or that many or more among the head's attempts.
double fisher_tail(int base_passed, int base_judged, int head_passed, int head_judged, bool lower) {
  if (base_judged <= 0 || head_judged <= 0) return 1.0;
  int total = base_judged + head_judged;
  int passes = base_passed + head_passed;
  double p = 0.0;
  for (int x = 0; x <= head_judged; ++x) {
    if (lower ? x <= head_passed : x >= head_passed) p += hypergeometric(total, passes, head_judged, x);
  }
  return std::min(1.0, p);
}

}  // namespace

double fisher_worse_p(int base_passed, int base_judged, int head_passed, int head_judged) {
  return fisher_tail(base_passed, base_judged, head_passed, head_judged, true);
}

double fisher_better_p(int base_passed, int base_judged, int head_passed, int head_judged) {
  return fisher_tail(base_passed, base_judged, head_passed, head_judged, false);
}

double percentile(std::vector<double>& values, double fraction) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  double position = fraction * double(values.size() - 1);
  std::size_t below = static_cast<std::size_t>(std::floor(position));
  std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - double(below)) * (values[above] - values[below]);
}

}  // namespace agent_run
