// Timing: every figure the harness reports is the median of `timed_runs`
// runs after `warmup_runs` untimed ones (the first call of an algorithm pays
// for scratch allocation, module loading and cold TLBs).
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::bench {

inline constexpr int warmup_runs = 3;
inline constexpr int timed_runs = 30;  // DESIGN.md section 6 asks for >= 20

struct timing {
  double median_us = 0.0;
  double min_us = 0.0;
  int runs = 0;
  // Device rows only: median per-call time when calls are queued back to
  // back (batches of `queued_batch` calls between two events), so the host's
  // launch latency overlaps the previous call, as in a pipeline. 0: not measured.
  double queued_us = 0.0;
};

inline constexpr int queued_batch = 10;

timing summarize(std::vector<double> samples_us);

// Wall-clock (steady_clock) timing of a host call. `run(i)` gets the call's
// sequence number, counting the warm-up calls, e.g. to rotate inputs.
timing time_host(const std::function<void(int run)>& run);

#if GPUPRIM_HAS_CUDA
// CUDA-event timing of the work `enqueue(i)` puts on `stream`: events are
// recorded before and after it on the same stream, and the host waits for
// each run to finish, so runs do not overlap. Launch latency is included,
// as a caller of one algorithm call sees it. Then `timed_runs` batches of
// `queued_batch` calls give `queued_us`.
timing time_device(stream_t stream, const std::function<void(int run)>& enqueue);

// time_device for several sides of a comparison at once (gpuprim and its
// vendor anchor). Interleaved (the default): one isolated run of each side
// in turn, then one queued batch of each in turn. The machine's launch
// latency drifts over a run (on the lent H100 an empty kernel took 5.6 to
// 7.0 us isolated); interleaved, both sides of a ratio see the same drift.
// Sequential (--sequential): all of one side's runs, then all of the
// next's. Each enqueue gets its call's number in one sequence shared by all
// sides.
enum class timing_order { interleaved, sequential };
void set_device_timing_order(timing_order order);
std::vector<timing> time_device_sides(stream_t stream,
                                      std::span<const std::function<void(int run)>> sides);

struct paired_timing {
  timing ours;
  timing vendor;
};
paired_timing time_device_pair(stream_t stream, const std::function<void(int run)>& ours,
                               const std::function<void(int run)>& vendor);

// A non-blocking CUDA stream owned for the length of a benchmark run.
class device_stream {
 public:
  device_stream();
  ~device_stream();
  device_stream(const device_stream&) = delete;
  device_stream& operator=(const device_stream&) = delete;
  stream_t get() const { return stream_; }

 private:
  stream_t stream_ = nullptr;
};
#endif

}  // namespace gpuprim::bench
