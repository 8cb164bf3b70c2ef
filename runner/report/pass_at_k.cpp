#include "report/pass_at_k.h"

#include <algorithm>
#include <numeric>

namespace agent_run {

namespace {

/// C(a, k) / C(b, k) for a <= b, as the product of (a - i) / (b - i) over i < k: no factorial overflows.
double binomial_ratio(int a, int b, int k) {
  double ratio = 1.0;
  for (int i = 0; i < k; ++i) {
    if (a - i <= 0) return 0.0;
    ratio *= double(a - i) / double(b - i);
  }
  return ratio;
}

bool valid(int n, int c, int k) { return k >= 1 && k <= n && c >= 0 && c <= n; }

}  // namespace

std::optional<double> pass_at_k(int n, int c, int k) {
  if (!valid(n, c, k)) return std::nullopt;
  return 1.0 - binomial_ratio(n - c, n, k);
}

std::optional<double> pass_hat_k(int n, int c, int k) {
  if (!valid(n, c, k)) return std::nullopt;
  return binomial_ratio(c, n, k);
}

std::vector<double> pass_at_every_k(int n, int c) {
  std::vector<double> values;
  for (int k = 1; k <= n; ++k) values.push_back(pass_at_k(n, c, k).value_or(0.0));
  return values;
}

std::vector<double> pass_hat_every_k(int n, int c) {
  std::vector<double> values;
  for (int k = 1; k <= n; ++k) values.push_back(pass_hat_k(n, c, k).value_or(0.0));
  return values;
}

std::optional<double> mean_of(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

std::optional<double> median_of(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

}  // namespace agent_run
