// Timing of repeated calls, shared by the autotuner (gp::tune), the
// benchmark harness (lab/bench) and the tuning probes (lab/probes): each
// figure is a median of timed runs after untimed warm-up runs (the first
// calls of an algorithm pay for scratch allocation, module loading and cold
// TLBs). Not part of the public API.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::detail {

// How many runs of a call are made, and how.
struct timing_plan {
  int warmup_runs = 3;  // untimed, before any timed run
  int timed_runs = 30;  // isolated runs: the host waits for each (0: none)
  int queued_runs = 0;  // batches of queued_batch calls queued back to back (0: none)
  int queued_batch = 10;
};

struct timing {
  double median_us = 0.0;  // of the isolated runs
  double min_us = 0.0;
  // Interquartile range of the isolated runs: the q-quantile is the sorted
  // samples' element floor(q (runs - 1)).
  double spread_us = 0.0;
  int runs = 0;  // isolated runs timed
  // Median per-call time of the queued batches, where the host's launch
  // latency overlaps the previous call, as in a pipeline. 0: not measured.
  double queued_us = 0.0;
};

// Median (the mean of the middle two for an even count), minimum and
// interquartile range of samples in microseconds; std::invalid_argument when
// there are none.
timing summarize(std::vector<double> samples_us);

// Wall-clock (steady_clock) timing of a host call. `run(i)` gets the call's
// sequence number, counting the warm-up calls, e.g. to rotate inputs.
// queued_runs does not apply.
timing time_host(const std::function<void(int run)>& run, const timing_plan& plan = {});

#if GPUPRIM_HAS_CUDA
// Sides of a comparison (gpuprim and its vendor anchor), timed in turn.
// Interleaved: one isolated run of each side in turn, then one queued batch
// of each in turn, so that both sides of a ratio see the same drift of the
// machine's launch latency. Sequential: all of one side's runs, then all of
// the next's.
enum class timing_order { interleaved, sequential };

// CUDA-event timing of the work `enqueue(i)` puts on `stream`: events are
// recorded before and after it on the same stream, and for isolated runs
// the host waits for each run to finish, so runs do not overlap; launch
// latency is included, as a caller of one call sees it. Every enqueue gets
// its call's number in one sequence shared by all sides (inputs rotated by
// it are then never read twice in a row). Throws gp::cuda_error.
std::vector<timing> time_device_sides(stream_t stream,
                                      std::span<const std::function<void(int run)>> sides,
                                      const timing_plan& plan = {},
                                      timing_order order = timing_order::interleaved);
timing time_device(stream_t stream, const std::function<void(int run)>& enqueue,
                   const timing_plan& plan = {});
#endif

}  // namespace gpuprim::detail
