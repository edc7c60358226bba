#include "gpuprim/detail/timing.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace gpuprim::detail {

timing summarize(std::vector<double> samples_us) {
  if (samples_us.empty()) throw std::invalid_argument("timing: no samples to summarize");
  std::sort(samples_us.begin(), samples_us.end());
  const std::size_t n = samples_us.size();
  const auto quantile = [&](double q) {
    return samples_us[static_cast<std::size_t>(q * static_cast<double>(n - 1))];
  };
  timing t;
  t.median_us = n % 2 ? samples_us[n / 2] : 0.5 * (samples_us[n / 2 - 1] + samples_us[n / 2]);
  t.min_us = samples_us.front();
  t.spread_us = quantile(0.75) - quantile(0.25);
  t.runs = static_cast<int>(n);
  return t;
}

timing time_host(const std::function<void(int run)>& run, const timing_plan& plan) {
  using clock = std::chrono::steady_clock;
  for (int i = 0; i < plan.warmup_runs; ++i)
    run(i);
  std::vector<double> samples_us;
  samples_us.reserve(static_cast<std::size_t>(std::max(plan.timed_runs, 0)));
  for (int i = 0; i < plan.timed_runs; ++i) {
    const auto start = clock::now();
    run(plan.warmup_runs + i);
    const auto stop = clock::now();
    samples_us.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  }
  return summarize(std::move(samples_us));
}

}  // namespace gpuprim::detail
