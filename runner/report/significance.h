#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace agent_run {

// The tests `agent-run compare` uses to tell a change from noise.

/// Fisher's exact test, one-sided: the chance, were both runs of one task equally good, that the
/// head run would pass `head_passed` of `head_judged` or fewer, given `base_passed` of
/// `base_judged` in the base run (the hypergeometric lower tail). 1 when either run judged nothing.
double fisher_worse_p(int base_passed, int base_judged, int head_passed, int head_judged);

/// The same for the head run passing that many or more.
double fisher_better_p(int base_passed, int base_judged, int head_passed, int head_judged);

/// The value below which `fraction` of `values` lie (linear interpolation between order
/// statistics); `values` is sorted in place. 0 for an empty list.
double percentile(std::vector<double>& values, double fraction);

/// The random source of a bootstrap: seeded so that a comparison gives the same interval every time.
class Resampler {
 public:
  explicit Resampler(std::uint64_t seed) : m_engine(seed) {}
  /// An index in [0, size): mt19937_64's output modulo size, the same on every platform (the
  /// standard's distributions may differ between libraries); the bias is below 1e-15 for any size here.
  std::size_t index(std::size_t size) { return static_cast<std::size_t>(m_engine() % size); }

 private:
  std::mt19937_64 m_engine;
};

}  // namespace agent_run
