// The tuning probes' timing (lab/probes/tune_*.cu): the library's timing
// module (gpuprim/detail/timing.hpp) with the probes' counts, in
// milliseconds. The probes are programs of their own (CMake targets
// gpuprim_lab_probe_<name>, which scripts/device-check.sh builds), not part
// of the library, the tests or the benchmark harness.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "gpuprim/detail/timing.hpp"

#define CHECK_CUDA(x)                                                             \
  do {                                                                            \
    const cudaError_t e = (x);                                                    \
    if (e != cudaSuccess) {                                                       \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

// One call between two events, the host waiting for each: median of 20
// after 3 warm-up calls, on `stream` (the legacy default stream unless
// given).
template <class F>
float median_ms(F f, cudaStream_t stream = nullptr) {
  const gpuprim::detail::timing t =
      gpuprim::detail::time_device(stream, [&](int) { f(); }, {.warmup_runs = 3, .timed_runs = 20});
  return static_cast<float>(t.median_us * 1e-3);
}

// Per call, calls queued back to back: batches of 10 between two events,
// the median batch over 20 (after 3 warm-up calls) divided by 10.
template <class F>
float median_queued_ms(F f, cudaStream_t stream = nullptr) {
  const gpuprim::detail::timing t = gpuprim::detail::time_device(
      stream, [&](int) { f(); },
      {.warmup_runs = 3, .timed_runs = 0, .queued_runs = 20, .queued_batch = 10});
  return static_cast<float>(t.queued_us * 1e-3);
}
