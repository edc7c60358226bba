// The rooflines every memory-bound row is compared with, measured in the
// same run as the rows.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "bench.hpp"
#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/runtime.hpp"
#include "timing.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime_api.h>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/cuda/support/check.cuh"
#endif

namespace gpuprim::bench {

namespace {
constexpr std::size_t gib = std::size_t{1} << 30;
}

double measure_device_copy_bandwidth_gbs() {
#if GPUPRIM_HAS_CUDA
  const std::size_t bytes = std::max(4 * get_device_info().l2_cache_bytes, gib);
  device_vector<std::byte> source(bytes), destination(bytes);
  source.fill_bytes(0x5a);
  synchronize(nullptr);
  const timing t = time_device(nullptr, [&](int) {
    GPUPRIM_CUDA_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes,
                                       cudaMemcpyDeviceToDevice, nullptr),
                       "copy bandwidth");
  });
  return 2.0 * static_cast<double>(bytes) / (t.median_us * 1e3);
#else
  detail::no_cuda_backend("measure_device_copy_bandwidth_gbs");
#endif
}

double measure_host_read_bandwidth_gbs() {
  return measure_host_read_bandwidth_gbs(gib);
}

// Every thread sums the 64-bit words of its own contiguous chunk, which it
// also wrote first (so the pages are on its NUMA node), with eight
// independent accumulators: a single one would make the loop wait on the
// add's latency instead of on memory. Each byte is read once per pass.
double measure_host_read_bandwidth_gbs(std::size_t buffer_bytes) {
  constexpr std::size_t lanes = 8;
  const std::size_t words =
      std::max<std::size_t>(buffer_bytes / sizeof(std::uint64_t), lanes) / lanes * lanes;
  const std::unique_ptr<std::uint64_t[]> buffer(new std::uint64_t[words]);
  std::uint64_t* data = buffer.get();

  // The chunk of `words` thread t of `team` owns, in whole groups of lanes.
  const auto chunk_begin = [words](std::size_t t, std::size_t team) {
    return words / lanes * t / team * lanes;
  };
#pragma omp parallel
  {
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    for (std::size_t i = chunk_begin(t, team); i < chunk_begin(t + 1, team); ++i)
      data[i] = i * 0x9e3779b97f4a7c15ull + 1;
  }

  struct alignas(64) padded_sum {
    std::uint64_t value = 0;
  };
  std::vector<padded_sum> sums(static_cast<std::size_t>(omp_get_max_threads()));
  const timing t = time_host([&](int) {
#pragma omp parallel
    {
      const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
      std::uint64_t acc[lanes] = {};
      for (std::size_t i = chunk_begin(thread, team); i < chunk_begin(thread + 1, team);
           i += lanes) {
        for (std::size_t k = 0; k < lanes; ++k)
          acc[k] += data[i + k];
      }
      std::uint64_t total = 0;
      for (std::uint64_t a : acc)
        total += a;
      sums[thread].value += total;  // keeps the loads from being optimized away
    }
  });
  volatile std::uint64_t sink = sums[0].value;
  (void)sink;
  return static_cast<double>(words * sizeof(std::uint64_t)) / (t.median_us * 1e3);
}

double measure_host_copy_bandwidth_gbs() {
  return measure_host_copy_bandwidth_gbs(gib);
}

// Every thread copies its own contiguous chunk of the source into the same
// chunk of the destination, both first written by that thread (so the pages
// are on its NUMA node). std::copy becomes memmove, which the C library
// tunes per CPU (non-temporal stores for large chunks where they pay off),
// as a user's copy would be. Bytes read + bytes written per pass.
double measure_host_copy_bandwidth_gbs(std::size_t buffer_bytes) {
  const std::size_t words = std::max<std::size_t>(buffer_bytes / sizeof(std::uint64_t), 1);
  const std::unique_ptr<std::uint64_t[]> source(new std::uint64_t[words]);
  const std::unique_ptr<std::uint64_t[]> destination(new std::uint64_t[words]);
  std::uint64_t* from = source.get();
  std::uint64_t* to = destination.get();
  const auto chunk_begin = [words](std::size_t t, std::size_t team) { return words * t / team; };
#pragma omp parallel
  {
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    for (std::size_t i = chunk_begin(t, team); i < chunk_begin(t + 1, team); ++i) {
      from[i] = i * 0x9e3779b97f4a7c15ull + 1;
      to[i] = 0;
    }
  }
  const timing t = time_host([&](int) {
#pragma omp parallel
    {
      const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
      std::copy(from + chunk_begin(thread, team), from + chunk_begin(thread + 1, team),
                to + chunk_begin(thread, team));
    }
  });
  volatile std::uint64_t sink = to[words / 2];
  (void)sink;
  return 2.0 * static_cast<double>(words * sizeof(std::uint64_t)) / (t.median_us * 1e3);
}

}  // namespace gpuprim::bench
