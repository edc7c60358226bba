// Tuning probe for the GPU histogram of bytes into 256 bins (one per value):
// times the production kernel (per-lane 8-bit counters, histogram_lane_bytes)
// against shared-memory atomics on one sub-histogram per warp and one per
// block, and against cub::DeviceHistogram::HistogramEven, on random bytes
// and on runs of one value, in one process on the same buffers. Checks each
// variant's counts against CUB's. Not part of the build or the tests; built
// and run by scripts/device-check.sh --tune-histogram (tune-histogram.txt).
// Medians of 20 isolated calls after 3 warm-ups, CUDA events, counts zeroed
// inside the timed call (as the library does).
#include <cuda_runtime.h>
#include <cub/device/device_histogram.cuh>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/cuda/device/device_histogram.cuh"
#include "gpuprim/histogram.hpp"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_detail;

namespace {

// The bin of a byte is the byte.
struct byte_bin {
  __host__ __device__ int operator()(std::uint8_t x) const { return x; }
};

void report(const char* name, float ms, float cub_ms, std::size_t n, const unsigned* counts,
            const std::vector<unsigned>& cub_counts) {
  std::vector<unsigned> got(256);
  CHECK_CUDA(cudaMemcpy(got.data(), counts, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::printf("  %-34s %8.1f us  %6.0f GB/s  %.2fx CUB  %s\n", name, ms * 1e3, n / (ms * 1e6),
              cub_ms / ms, got == cub_counts ? "same counts as CUB" : "COUNTS DIFFER FROM CUB");
}

void compare(const std::vector<std::uint8_t>& host, const char* what) {
  const std::size_t n = host.size();
  std::uint8_t* in;
  unsigned* counts;
  CHECK_CUDA(cudaMalloc(&in, n));
  CHECK_CUDA(cudaMalloc(&counts, 256 * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n, cudaMemcpyHostToDevice));

  std::size_t temp_bytes = 0;
  void* temp = nullptr;
  auto cub_histogram = [&] {
    CHECK_CUDA(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, counts, 257, 0, 256,
                                                   static_cast<long long>(n)));
  };
  cub_histogram();
  CHECK_CUDA(cudaMalloc(&temp, temp_bytes));
  const float cub_ms = median_ms(cub_histogram);
  std::vector<unsigned> cub_counts(256);
  CHECK_CUDA(cudaMemcpy(cub_counts.data(), counts, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::printf("bytes into 256 bins, %s, n = 2^%d: CUB %.1f us (%.0f GB/s)\n", what,
              int(std::log2(double(n))), cub_ms * 1e3, n / (cub_ms * 1e6));

  const float lane_ms = median_ms([&] {
    gp::detail::cuda_histogram_into(
        in, n, counts, 256, gp::detail::even_binner<std::uint8_t>(0, 256, 256), nullptr, nullptr);
  });
  report("per-lane byte counters (default)", lane_ms, cub_ms, n, counts, cub_counts);

  for (int copies : {8, 1}) {
    constexpr int threads = gc::histogram_threads;
    constexpr int unroll = gc::histogram_unroll;
    const auto kernel =
        &gc::histogram_shared_atomics<threads, unroll, std::uint8_t, unsigned, byte_bin>;
    const std::size_t shared = std::size_t(256) * sizeof(unsigned) * copies;
    const unsigned grid = gc::histogram_grid(
        gc::histogram_resident_blocks(reinterpret_cast<const void*>(kernel), threads, shared), n,
        std::uint64_t(threads) * 16 * unroll);
    const float ms = median_ms([&] {
      gc::histogram_zero<<<1, 256>>>(counts, 256, nullptr);
      kernel<<<grid, threads, shared>>>(in, n, byte_bin{}, 256, copies, counts, nullptr);
    });
    report(copies == 8 ? "shared atomics, one copy per warp" : "shared atomics, one per block", ms,
           cub_ms, n, counts, cub_counts);
  }
  CHECK_CUDA(cudaFree(temp));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(counts));
}

}  // namespace

int main() {
  for (std::size_t n : {std::size_t{1} << 24, std::size_t{1} << 28}) {
    std::mt19937_64 g(n);
    std::vector<std::uint8_t> bytes(n);
    for (auto& b : bytes)
      b = static_cast<std::uint8_t>(g());
    compare(bytes, "random");
    // Runs of 4096 equal bytes: every lane of a warp on one bin.
    for (std::size_t i = 0; i < n; ++i)
      bytes[i] = static_cast<std::uint8_t>((i / 4096) * 37);
    compare(bytes, "runs of 4096");
  }
}
