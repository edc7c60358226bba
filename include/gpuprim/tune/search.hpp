// How the tuner walks a space: a pure function of the space, a measure
// callback and a seed, so the host tests can check it with fake timings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gpuprim/tune/config.hpp"

namespace gpuprim::tuning {

// One candidate's timing: the median and the spread (interquartile range)
// of its runs. ok = false: the candidate could not run or gave a result
// that disagreed with the default's; it never wins.
struct measurement {
  double median_us = 0.0;
  double spread_us = 0.0;
  bool ok = true;
};

using measure_fn = std::function<measurement(const config&)>;

struct trial {
  config candidate;
  measurement time;
};

struct search_options {
  // Most candidates to measure (the default included). A space no larger
  // than this is searched exhaustively.
  std::size_t max_trials = 64;
  // Budgeted search: random candidates measured before the local refinement.
  std::size_t random_samples = 8;
  std::uint64_t seed = 0x9e3779b97f4a7c15ull;
  // Differences below this fraction of the default's time are noise even
  // when the runs' spread is smaller.
  double noise_floor = 0.01;
  // Checked before each candidate after the default: true ends the search
  // (a time budget). Empty: no limit but max_trials.
  std::function<bool()> out_of_time;
};

struct search_result {
  std::vector<trial> trials;  // in measuring order; trials[0] is the default
  std::size_t winner = 0;     // index into trials
  bool exhaustive = false;
  const trial& best() const { return trials[winner]; }
  const trial& default_trial() const { return trials[0]; }
  // Default time / winner time (1 when the default won).
  double gain() const;
};

// The winner rule: the fastest candidate that ran, unless it beats the
// default (trials[0]) by no more than the noise (the larger of the two
// spreads and noise_floor * default's median): then the default.
std::size_t pick_winner(const std::vector<trial>& trials, double noise_floor);

// Every candidate, the default first.
search_result search_exhaustive(const space& s, const measure_fn& measure,
                                const search_options& options = {});

// The default, then `random_samples` distinct random candidates (seeded
// std::mt19937_64), then local refinement: the untried neighbours of the
// best so far, until none improves or max_trials are spent. The same seed
// and the same timings give the same trials in the same order.
search_result search_budgeted(const space& s, const measure_fn& measure,
                              const search_options& options);

// Exhaustive when the space has at most max_trials candidates, else budgeted.
search_result search(const space& s, const measure_fn& measure, const search_options& options);

}  // namespace gpuprim::tuning
