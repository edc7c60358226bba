// The timing module shared by the tuner, the benchmark harness and the
// probes (gpuprim/detail/timing.hpp): its statistics and the runs it makes.
// Nothing here is timed against a bound: only counts and order statistics.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "gpuprim/detail/timing.hpp"

namespace {

using gpuprim::detail::summarize;
using gpuprim::detail::time_host;
using gpuprim::detail::timing;
using gpuprim::detail::timing_plan;

TEST(timing, median_of_an_odd_count_is_the_middle_sample) {
  const timing t = summarize({9.0, 1.0, 5.0, 3.0, 7.0});
  EXPECT_EQ(t.median_us, 5.0);
  EXPECT_EQ(t.min_us, 1.0);
  EXPECT_EQ(t.runs, 5);
  // Quartiles at floor(0.25 * 4) = 1 and floor(0.75 * 4) = 3: 3 and 7.
  EXPECT_EQ(t.spread_us, 4.0);
  EXPECT_EQ(t.queued_us, 0.0);
}

TEST(timing, median_of_an_even_count_is_the_mean_of_the_middle_two) {
  const timing t = summarize({4.0, 1.0, 2.0, 10.0});
  EXPECT_EQ(t.median_us, 3.0);
  EXPECT_EQ(t.min_us, 1.0);
  // Quartiles at floor(0.75) = 0 and floor(2.25) = 2: 1 and 4.
  EXPECT_EQ(t.spread_us, 3.0);
}

TEST(timing, no_samples_is_an_error) {
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

TEST(timing, host_runs_warm_up_then_timed_runs_numbered_in_one_sequence) {
  std::vector<int> calls;
  const timing_plan plan{.warmup_runs = 2, .timed_runs = 5};
  const timing t = time_host([&](int run) { calls.push_back(run); }, plan);
  EXPECT_EQ(calls, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(t.runs, 5);
  EXPECT_GE(t.median_us, t.min_us);
  EXPECT_GE(t.min_us, 0.0);
}

TEST(timing, host_timing_without_timed_runs_is_an_error) {
  int calls = 0;
  EXPECT_THROW(time_host([&](int) { ++calls; }, {.warmup_runs = 1, .timed_runs = 0}),
               std::invalid_argument);
  EXPECT_EQ(calls, 1);
}

}  // namespace
