// The harness's timing policy over the library's timing module
// (gpuprim/detail/timing.hpp): every figure is the median of `timed_runs`
// runs after `warmup_runs` untimed ones; device rows also time `timed_runs`
// batches of `queued_batch` calls queued back to back (timing::queued_us).
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "gpuprim/detail/timing.hpp"

namespace gpuprim::bench {

inline constexpr int warmup_runs = 3;
inline constexpr int timed_runs = 30;  // DESIGN.md section 6 asks for >= 20
inline constexpr int queued_batch = 10;
inline constexpr detail::timing_plan timing_runs{.warmup_runs = warmup_runs,
                                                 .timed_runs = timed_runs,
                                                 .queued_runs = timed_runs,
                                                 .queued_batch = queued_batch};

using detail::timing;

inline timing time_host(const std::function<void(int run)>& run) {
  return detail::time_host(run, timing_runs);
}

#if GPUPRIM_HAS_CUDA
using detail::timing_order;

// The order of the sides of a comparison for this run (--sequential):
// interleaved by default.
inline timing_order& device_timing_order() {
  static timing_order order = timing_order::interleaved;
  return order;
}

inline std::vector<timing> time_device_sides(stream_t stream,
                                             std::span<const std::function<void(int run)>> sides) {
  return detail::time_device_sides(stream, sides, timing_runs, device_timing_order());
}

inline timing time_device(stream_t stream, const std::function<void(int run)>& enqueue) {
  return time_device_sides(stream, std::span(&enqueue, 1)).front();
}

struct paired_timing {
  timing ours;
  timing vendor;
};
inline paired_timing time_device_pair(stream_t stream, const std::function<void(int run)>& ours,
                                      const std::function<void(int run)>& vendor) {
  const std::function<void(int run)> sides[] = {ours, vendor};
  const std::vector<timing> t = time_device_sides(stream, sides);
  return {t[0], t[1]};
}
#endif

}  // namespace gpuprim::bench
