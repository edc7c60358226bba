// Tuning probe for the single-pass GPU scan: times an inclusive float sum
// with several look-back window widths (status words each lane of the
// look-back warp polls at once: 32 tiles each) and tile shapes (threads,
// elements per thread, blocks per SM; the default is 512 x 16 at 4 blocks)
// against cub::DeviceScan::InclusiveSum in one process on the same buffers. Not part of the build
// or the tests; built and run by scripts/device-check.sh --tune-scan (tune-scan.txt).
//
// Prints one line per size: CUB's time, then each variant's time and ratio
// (CUB / variant: above 1 is faster than CUB), whether its bits equal those
// of the one-word window at the default tile (they must at that tile: every
// tile's prefix is the same left fold whatever the window; other tiles
// associate the sum differently), and its largest
// relative difference from CUB (which combines in another order). Medians
// of 20 isolated calls after 3 warm-ups, CUDA events.
#include <cuda_runtime.h>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/cuda/device/device_scan.cuh"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_detail;

// A scan configuration: threads per block, look-back window words,
// elements per thread and blocks per SM (0: the library's default), and the
// look-back's sleeps before its first poll and between polls (ns).
template <int Threads, int Words, int Items = 0, int MinBlocks = 0, int FirstDelay = 0,
          int PollDelay = 0>
struct scan_config {};

template <int Threads, int Words, int Items, int MinBlocks, int FirstDelay, int PollDelay>
void run_variant(scan_config<Threads, Words, Items, MinBlocks, FirstDelay, PollDelay>,
                 const float* in, float* out, std::size_t n, const std::vector<float>& cub_out,
                 std::vector<float>& one_word_out, float cub_ms) {
  const auto scan = [&] {
    gc::launch_scan<false, Threads, Words, Items, MinBlocks, FirstDelay, PollDelay>(
        in, out, n, 0.0f, gp::plus{}, gp::detail::unary_fetch<gp::identity>{}, nullptr);
  };
  constexpr bool default_tile = Threads == 512 && (Items == 0 || Items == 16) && MinBlocks == 0;
  const float ms = median_ms(scan);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  if (Words == 1 && default_tile && FirstDelay == 0 && PollDelay == 0) one_word_out = got;
  const bool same = one_word_out.size() == n &&
                    std::memcmp(got.data(), one_word_out.data(), n * sizeof(float)) == 0;
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double scale = std::max(1.0, std::fabs(double(cub_out[i])));
    worst = std::max(worst, std::fabs(double(got[i]) - double(cub_out[i])) / scale);
  }
  std::printf(
      "  %4d threads x %2d items, %2d blocks/SM, window %3d tiles, sleeps %4d/%3d ns: %9.1f us  "
      "%.2fx CUB  %s  max rel diff vs CUB %.1e\n",
      Threads, Items > 0 ? Items : 16, MinBlocks > 0 ? MinBlocks : 2048 / Threads, 32 * Words,
      FirstDelay, PollDelay, ms * 1e3, cub_ms / ms,
      !default_tile ? "(other tile)"
      : same        ? "same bits as window 32"
                    : "BITS DIFFER FROM WINDOW 32",
      worst);
}

template <class... Configs>
void compare(std::size_t n) {
  std::mt19937_64 g(n);
  std::vector<float> host(n);
  for (auto& v : host)
    v = float(double(g() >> 11) * 0x1p-53 * 2.0 - 1.0);
  float *in, *out;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  std::size_t temp_bytes = 0;
  void* temp = nullptr;
  CHECK_CUDA(cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n));
  CHECK_CUDA(cudaMalloc(&temp, temp_bytes));
  const float cub_ms =
      median_ms([&] { CHECK_CUDA(cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n)); });
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> cub_out(n);
  CHECK_CUDA(cudaMemcpy(cub_out.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("inclusive float sum, n = 2^%d: CUB %.1f us (%.0f GB/s read + written)\n",
              int(std::log2(double(n))), cub_ms * 1e3, 2.0 * n * sizeof(float) / (cub_ms * 1e6));
  std::vector<float> one_word_out;
  (run_variant(Configs{}, in, out, n, cub_out, one_word_out, cub_ms), ...);
  CHECK_CUDA(cudaFree(temp));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
}

int main() {
  // The one-word window at the default tile first: its bits are the
  // reference. (1024 threads would need 66 KB of static shared memory a
  // block.) Windows of 2 and 4 words spill 16-56 bytes in the look-back warp
  // at 32 registers. Larger tiles (fewer look-back steps: the radix sort
  // gained most from them) within 48 KB of staging: 512 x 20, 384 x 24,
  // 256 x 40 elements; and CUB's H100 shape for float sums, small tiles at
  // full occupancy (128 x 24, 16 blocks per SM: while one block waits on
  // its look-back, fifteen others keep loading; at 32 registers it spills
  // 56-84 bytes, so also at 12 blocks), and 256 x 24 at 8. Then sleeps in
  // the look-back (CUB's H100 float scan: about 1.1 us before the first
  // poll, 0.7 us between polls).
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28})
    compare<scan_config<512, 1>, scan_config<512, 2>, scan_config<512, 4>,
            scan_config<512, 2, 20, 3>, scan_config<512, 2, 20, 2>, scan_config<384, 2, 24, 2>,
            scan_config<256, 2, 40, 3>, scan_config<256, 2, 32, 4>, scan_config<128, 2, 24, 16>,
            scan_config<128, 2, 24, 12>, scan_config<256, 2, 24, 8>, scan_config<128, 1, 24, 16>,
            scan_config<512, 2, 0, 0, 1000, 0>, scan_config<512, 2, 0, 0, 0, 200>,
            scan_config<512, 2, 0, 0, 500, 200>, scan_config<512, 2, 0, 0, 1100, 700>,
            scan_config<128, 2, 24, 16, 1100, 700>>(n);
}
