// Tuning probe for the GPU histogram of bytes: times the production path
// (histogram_launch) against the per-lane byte counters, shared atomics with
// the binner's arithmetic or a byte -> bin table, and
// cub::DeviceHistogram::HistogramEven, for bytes into their 256 values
// (production: shared atomics, 768 threads sharing one sub-histogram, the
// byte as the bin) and into 64 even bins (production: per-lane 8-bit counters), on
// random bytes and on runs of one value, in one process on the same
// buffers. Checks each variant's counts against CUB's. Not part of the build
// or the tests; built and run by scripts/device-check.sh --tune-histogram
// (tune-histogram.txt). Medians of 20 isolated calls after 3 warm-ups, CUDA
// events, counts zeroed inside the timed call (as the library does).
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

using even_bytes = gp::detail::even_binner<std::uint8_t>;

void report(const char* name, float ms, float cub_ms, std::size_t n, const unsigned* counts,
            const std::vector<unsigned>& cub_counts) {
  std::vector<unsigned> got(cub_counts.size());
  CHECK_CUDA(cudaMemcpy(got.data(), counts, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::printf("  %-36s %8.1f us  %6.0f GB/s  %.2fx CUB  %s\n", name, ms * 1e3, n / (ms * 1e6),
              cub_ms / ms, got == cub_counts ? "same counts as CUB" : "COUNTS DIFFER FROM CUB");
}

// Bytes into `bins` even bins over [0, 256).
void compare(const std::vector<std::uint8_t>& host, int bins, const char* what) {
  const std::size_t n = host.size();
  const even_bytes binner(0, 256, bins);
  std::uint8_t* in;
  unsigned* counts;
  CHECK_CUDA(cudaMalloc(&in, n));
  CHECK_CUDA(cudaMalloc(&counts, bins * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n, cudaMemcpyHostToDevice));

  const cub_call cub_histogram([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, counts, bins + 1, 0, 256,
                                               static_cast<long long>(n));
  });
  const float cub_ms = median_ms(cub_histogram);
  std::vector<unsigned> cub_counts(bins);
  CHECK_CUDA(
      cudaMemcpy(cub_counts.data(), counts, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::printf("bytes into %d bins, %s, n = 2^%d: CUB %.1f us (%.0f GB/s)\n", bins, what,
              int(std::log2(double(n))), cub_ms * 1e3, n / (cub_ms * 1e6));

  const float production_ms = median_ms(
      [&] { gp::detail::cuda_histogram_into(in, n, counts, bins, binner, nullptr, nullptr); });
  report("production (histogram_launch)", production_ms, cub_ms, n, counts, cub_counts);

  // The per-lane byte counters.
  {
    const auto kernel = &gc::histogram_lane_bytes<std::uint8_t, unsigned, even_bytes>;
    const std::size_t shared = std::size_t(gc::lane_bytes_threads / 32) *
                               gc::lane_bytes_rows(bins + 1) * 32 * sizeof(unsigned);
    gc::histogram_allow_shared(reinterpret_cast<const void*>(kernel), shared);
    const unsigned grid =
        gc::histogram_grid(gc::histogram_resident_blocks(reinterpret_cast<const void*>(kernel),
                                                         gc::lane_bytes_threads, shared),
                           n, std::uint64_t(gc::lane_bytes_threads) * 16 * gc::lane_bytes_unroll);
    const float ms = median_ms([&] {
      gc::histogram_zero<<<1, 256>>>(counts, bins, nullptr);
      kernel<<<grid, gc::lane_bytes_threads, shared>>>(in, n, binner, bins, counts, nullptr);
    });
    report("per-lane byte counters", ms, cub_ms, n, counts, cub_counts);
  }
  // Shared atomics (one sub-histogram per warp: launch_shared_atomics), the
  // bin from the even binner's arithmetic per sample or from a byte -> bin
  // table in shared memory, and one sub-histogram per block.
  const auto time_launch = [&](const char* name, auto launch) {
    const float ms = median_ms([&] {
      gc::histogram_zero<<<1, 256>>>(counts, bins, nullptr);
      launch();
    });
    report(name, ms, cub_ms, n, counts, cub_counts);
  };
  time_launch("shared atomics, even binner", [&] {
    gc::launch_shared_atomics<false>(in, n, counts, bins, binner, nullptr, nullptr);
  });
  time_launch("shared atomics, byte table", [&] {
    gc::launch_shared_atomics<true>(in, n, counts, bins, binner, nullptr, nullptr);
  });
  {
    constexpr int threads = gc::histogram_threads;
    const auto kernel = &gc::histogram_shared_atomics<threads, gc::histogram_unroll, std::uint8_t,
                                                      unsigned, even_bytes, true>;
    const std::size_t shared = std::size_t(bins) * sizeof(unsigned);
    const unsigned grid = gc::histogram_grid(
        gc::histogram_resident_blocks(reinterpret_cast<const void*>(kernel), threads, shared), n,
        std::uint64_t(threads) * 16 * gc::histogram_unroll);
    time_launch("  ... byte table, one copy per block", [&] {
      kernel<<<grid, threads, shared>>>(in, n, binner, bins, 1, counts, nullptr);
    });
  }
  // Bytes into their own values (the production bin): other block shapes,
  // with one sub-histogram per warp unless said. More loads in flight per thread or
  // more threads per block mean fewer blocks, so less fixed work per
  // sample (zeroing and merging the sub-histograms, the global adds); at
  // 2^24 the production grid reads one round of 4 vectors per thread.
  if (bins == 256) {
    // Copies: at most that many sub-histograms per block (0: one per warp).
    const auto shape = [&]<int Threads, int Unroll, int Copies = 0>(const char* name) {
      time_launch(name, [&] {
        gc::launch_shared_atomics<false, Threads, Unroll, (Copies > 0 ? Copies : Threads / 32)>(
            in, n, counts, 256, gc::byte_value_bin{}, nullptr, nullptr);
      });
    };
    shape.template operator()<256, 4>("byte as bin, 256 threads x 4 loads");
    shape.template operator()<256, 8>("byte as bin, 256 threads x 8 loads");
    shape.template operator()<512, 4>("byte as bin, 512 threads x 4 loads");
    // CUB's sm_90 shape for bytes: 768 threads x 12 samples, one histogram
    // per block, few blocks each reading several tiles.
    shape.template operator()<768, 4, 1>("byte as bin, 768 threads, one copy");
    shape.template operator()<768, 4, 2>("byte as bin, 768 threads, 2 copies");
    shape.template operator()<768, 8, 1>("byte as bin, 768 x 8 loads, one copy");
    shape.template operator()<1024, 4, 1>("byte as bin, 1024 threads, one copy");
    shape.template operator()<1024, 4, 2>("byte as bin, 1024 threads, 2 copies");
  }
  free_device(in, counts);
}

}  // namespace

int main() {
  for (std::size_t n : {std::size_t{1} << 22, std::size_t{1} << 24, std::size_t{1} << 28}) {
    std::mt19937_64 g(n);
    std::vector<std::uint8_t> bytes(n);
    for (auto& b : bytes)
      b = static_cast<std::uint8_t>(g());
    for (int bins : {256, 64})
      compare(bytes, bins, "random");
    // Runs of 4096 equal bytes: every lane of a warp on one bin.
    for (std::size_t i = 0; i < n; ++i)
      bytes[i] = static_cast<std::uint8_t>((i / 4096) * 37);
    for (int bins : {256, 64})
      compare(bytes, bins, "runs of 4096");
  }
}
