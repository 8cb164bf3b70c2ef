#pragma once

#include <optional>
#include <vector>

namespace agent_run {

// The estimators of success over repeated attempts. Every one takes counts of judged attempts
// (passed + failed): an error, which the runner could not judge, is in neither count.

/// pass@k, the chance that at least one of k attempts drawn without replacement from `n` judged
/// ones, `c` of them passed, passes: the unbiased estimator 1 - C(n-c, k) / C(n, k) (Chen et al.
/// 2021). nullopt when k < 1 or k > n.
std::optional<double> pass_at_k(int n, int c, int k);

/// pass^k, the chance that all k such attempts pass: C(c, k) / C(n, k). nullopt when k < 1 or k > n.
std::optional<double> pass_hat_k(int n, int c, int k);

/// pass@k for k = 1..n (element k-1 is pass@k); empty when n is 0.
std::vector<double> pass_at_every_k(int n, int c);

/// pass^k for k = 1..n.
std::vector<double> pass_hat_every_k(int n, int c);

/// The mean of `values`; nullopt when there are none.
std::optional<double> mean_of(const std::vector<double>& values);

/// The median of `values` (the mean of the middle two for an even count); nullopt when none.
std::optional<double> median_of(std::vector<double> values);

}  // namespace agent_run
