// The searchers: exhaustive, and budgeted (random samples, then local
// refinement around the best). Pure functions of the space, the measure
// callback and the seed.
#include <algorithm>
#include <random>

#include "gpuprim/tune/search.hpp"

namespace gpuprim::tuning {

double search_result::gain() const {
  const double best_us = best().time.median_us;
  return best_us > 0.0 ? default_trial().time.median_us / best_us : 1.0;
}

std::size_t pick_winner(const std::vector<trial>& trials, double noise_floor) {
  if (trials.empty()) return 0;
  std::size_t best = 0;
  for (std::size_t i = 1; i < trials.size(); ++i) {
    if (!trials[i].time.ok) continue;
    if (!trials[best].time.ok || trials[i].time.median_us < trials[best].time.median_us) best = i;
  }
  const measurement& def = trials[0].time;
  if (best == 0 || !def.ok) return best;
  const measurement& win = trials[best].time;
  const double noise = std::max({def.spread_us, win.spread_us, noise_floor * def.median_us});
  return def.median_us - win.median_us > noise ? best : 0;
}

namespace {

// Measures `c` unless it was measured already; returns its trial index.
struct trial_log {
  const measure_fn& measure;
  search_result& result;
  const std::function<bool()>& out_of_time;
  bool stopped = false;

  // False when the time budget ended the search (nothing was measured).
  bool run(const config& c) {
    if (tried(c)) return true;
    if (!result.trials.empty() && out_of_time && out_of_time()) stopped = true;
    if (stopped) return false;
    result.trials.push_back({c, measure(c)});
    return true;
  }
  bool tried(const config& c) const {
    return std::any_of(result.trials.begin(), result.trials.end(),
                       [&](const trial& t) { return t.candidate == c; });
  }
};

}  // namespace

search_result search_exhaustive(const space& s, const measure_fn& measure,
                                const search_options& options) {
  search_result result;
  trial_log log{measure, result, options.out_of_time};
  log.run(s.default_config);
  for (const config& c : s.candidates) {
    if (!log.run(c)) break;
  }
  result.exhaustive = !log.stopped;
  result.winner = pick_winner(result.trials, options.noise_floor);
  return result;
}

search_result search_budgeted(const space& s, const measure_fn& measure,
                              const search_options& options) {
  search_result result;
  trial_log log{measure, result, options.out_of_time};
  const std::size_t budget = std::max<std::size_t>(1, options.max_trials);
  log.run(s.default_config);

  // Random phase: a seeded shuffle of the candidates, the first few taken.
  std::vector<std::size_t> order(s.candidates.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::mt19937_64 rng(options.seed);
  // Fisher-Yates with our own index draw: std::shuffle's use of the
  // engine is not specified, so the order could change between libraries.
  for (std::size_t i = order.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(rng() % i);
    std::swap(order[i - 1], order[j]);
  }
  std::size_t sampled = 0;
  for (std::size_t i : order) {
    if (sampled >= options.random_samples || result.trials.size() >= budget) break;
    if (log.tried(s.candidates[i])) continue;
    if (!log.run(s.candidates[i])) break;
    ++sampled;
  }

  // Local refinement: step to the best untried neighbour of the best so far.
  auto best_index = [&] {
    std::size_t best = 0;
    for (std::size_t i = 1; i < result.trials.size(); ++i) {
      const measurement& t = result.trials[i].time;
      if (t.ok &&
          (!result.trials[best].time.ok || t.median_us < result.trials[best].time.median_us))
        best = i;
    }
    return best;
  };
  while (result.trials.size() < budget && !log.stopped) {
    const std::size_t best = best_index();
    bool measured_any = false;
    for (const config& k : s.neighbours(result.trials[best].candidate)) {
      if (result.trials.size() >= budget) break;
      if (log.tried(k)) continue;
      if (!log.run(k)) break;
      measured_any = true;
    }
    if (!measured_any || best_index() == best) break;
  }
  result.winner = pick_winner(result.trials, options.noise_floor);
  return result;
}

search_result search(const space& s, const measure_fn& measure, const search_options& options) {
  if (s.candidates.size() <= options.max_trials) return search_exhaustive(s, measure, options);
  return search_budgeted(s, measure, options);
}

}  // namespace gpuprim::tuning
