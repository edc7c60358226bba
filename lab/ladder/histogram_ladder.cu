// Host side of the histogram ladder: launchers for the rungs of
// lab/ladder/histogram.cuh, the production histogram_even as the last
// rung, and the table that the tests and `gpuprim bench histogram --ladder`
// iterate.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/histogram.hpp"
#include "lab/ladder/histogram.cuh"
#include "lab/ladder/ladder.hpp"

namespace gpuprim::ladder {
namespace {

constexpr const char* algorithm = "histogram ladder";

using rung_kernel = void (*)(const std::uint8_t*, std::uint64_t, unsigned*);

void require_64_bins(device_span<std::uint32_t> counts) {
  if (counts.size() != static_cast<std::size_t>(histogram_ladder_bins)) {
    throw std::invalid_argument("gpuprim::ladder: the histogram ladder has " +
                                std::to_string(histogram_ladder_bins) + " bins; counts has " +
                                std::to_string(counts.size()));
  }
}

// Zeroes counts, counts the bytes before the first 4-byte boundary with
// global atomics (rungs 3 and 4 read whole words), then runs `kernel` on
// the rest over `blocks_per_sm` blocks per SM (fewer for small inputs).
template <rung_kernel Kernel, unsigned Threads, unsigned SamplesPerThread>
void run_rung(device_span<const std::uint8_t> samples, device_span<std::uint32_t> counts,
              stream_t stream) {
  require_64_bins(counts);
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  auto* out = reinterpret_cast<unsigned*>(counts.data());
  detail::fill_bytes(out, 0, counts.size_bytes(), stream);
  const std::uint64_t n = samples.size();
  if (n == 0) return;
  const auto address = reinterpret_cast<std::uintptr_t>(samples.data());
  const std::uint64_t head = std::min<std::uint64_t>((4 - address % 4) % 4, n);
  if (head > 0) {
    histogram_global_atomics<<<1, 32, 0, s>>>(samples.data(), head, out);
    detail::check_launch("histogram_global_atomics", algorithm);
  }
  const std::uint64_t rest = n - head;
  if (rest == 0) return;
  const std::uint64_t wanted =
      cuda_impl::ceil_div(rest, std::uint64_t(Threads) * SamplesPerThread);
  const std::uint64_t full = std::uint64_t(cuda_impl::current_multiprocessor_count()) * 8;
  const auto grid = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(wanted, full)));
  Kernel<<<grid, Threads, 0, s>>>(samples.data() + head, rest, out);
  detail::check_launch("histogram ladder rung", algorithm);
}

// Rung 5: the library's own histogram_even.
void run_production(device_span<const std::uint8_t> samples, device_span<std::uint32_t> counts,
                    stream_t stream) {
  require_64_bins(counts);
  histogram_even_into(cuda.on(stream), samples, counts, 0, 256);
}

// clang-format off
constexpr histogram_rung histogram_ladder[] = {
  {"histogram_global_atomics", "baseline: one global atomic per sample, contended in L2",
   run_rung<histogram_global_atomics, histogram_ladder_threads, 16>},
  {"histogram_block_shared_atomics", "per-block shared histogram: atomics stay on the SM",
   run_rung<histogram_block_shared_atomics, histogram_ladder_threads, 16>},
  {"histogram_warp_shared_atomics", "per-warp sub-histograms, 4 samples per load: less contention",
   run_rung<histogram_warp_shared_atomics, histogram_ladder_threads, 64>},
  {"histogram_thread_byte_counters",
   "per-thread byte counters, permuted thread index: no atomics, no bank conflicts",
   run_rung<histogram_thread_byte_counters, histogram_byte_counter_threads, 4 * histogram_words_per_fold>},
  {"histogram_even (byte entries, fold)",
   "production: one shared atomic per byte on its own value, folded into the bins per block",
   run_production},
};
// clang-format on

}  // namespace

GPUPRIM_LADDER_DEFINE(histogram_rung, histogram_rungs, histogram_ladder);

}  // namespace gpuprim::ladder
