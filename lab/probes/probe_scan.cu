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
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/cuda/device/device_scan.cuh"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

// A scan configuration: threads per block, look-back window words,
// elements per thread and blocks per SM (0: the library's default), the
// look-back's sleeps before its first poll and between polls (ns), and the
// tiles ahead whose input is prefetched into L2 (the library's default
// unless given), and where a thread keeps its elements (gc::scan_staging).
template <int Threads, int Words, int Items = 0, int MinBlocks = 0,
          int FirstDelay = gc::scan_first_poll_delay_ns, int PollDelay = 0,
          int Prefetch = gc::scan_prefetch_tiles,
          gc::scan_staging Staging = gc::scan_staging::automatic>
struct scan_config {};

template <int Threads, int Words, int Items, int MinBlocks, int FirstDelay, int PollDelay,
          int Prefetch, gc::scan_staging Staging>
void run_variant(
    scan_config<Threads, Words, Items, MinBlocks, FirstDelay, PollDelay, Prefetch, Staging>,
    const float* in, float* out, std::size_t n, const std::vector<float>& cub_out,
    std::vector<float>& one_word_out, float cub_ms) {
  const auto scan = [&] {
    gc::launch_scan<false, Threads, Words, Items, MinBlocks, FirstDelay, PollDelay, Prefetch,
                    Staging>(in, out, n, 0.0f, gp::plus{}, gp::detail::unary_fetch<gp::identity>{},
                             nullptr);
  };
  constexpr bool default_tile = Threads == 0 && Items == 0 && MinBlocks == 0;
  using shape = gc::scan_tile_shape<Threads, Items, MinBlocks, Staging, float, float, float>;
  const float ms = median_ms(scan);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  if (Words == 1 && default_tile && FirstDelay == gc::scan_first_poll_delay_ns && PollDelay == 0)
    one_word_out = got;
  const bool same = one_word_out.size() == n &&
                    std::memcmp(got.data(), one_word_out.data(), n * sizeof(float)) == 0;
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double scale = std::max(1.0, std::fabs(double(cub_out[i])));
    worst = std::max(worst, std::fabs(double(got[i]) - double(cub_out[i])) / scale);
  }
  std::printf(
      "  %4d threads x %2d items, %2d blocks/SM,%s window %3d tiles, sleeps %4d/%3d ns, prefetch "
      "%4d tiles ahead: %9.1f us  "
      "%.2fx CUB  %s  max rel diff vs CUB %.1e\n",
      shape::threads, shape::items, shape::min_blocks, shape::rescan ? " rescan," : "", 32 * Words,
      FirstDelay, PollDelay, Prefetch, ms * 1e3, cub_ms / ms,
      !default_tile ? "(other tile)"
      : same        ? "same bits as window 32"
                    : "BITS DIFFER FROM WINDOW 32",
      worst);
}

// The scan's data path without the look-back: the same staging, thread
// scan and block scan, each tile on its own (its prefix left out, so the
// output is not a scan of the whole array). Its time is the ceiling that
// any look-back leaves room for. Copy = true only stages the tile through
// shared memory and stores it back.
template <int Threads, int Items, int MinBlocks, bool Copy>
__global__ void __launch_bounds__(Threads, MinBlocks)
    tiles_without_lookback(const float* in, float* out, std::uint64_t n) {
  constexpr int warps = Threads / 32;
  constexpr int warp_elements = 32 * Items;
  using exchange = gc::warp_exchange<Items, 4, float>;
  __shared__ alignas(16) float stage[warps][exchange::slots];
  __shared__ typename gc::block_scan<Threads, float>::storage scan_storage;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const std::uint64_t warp_begin =
      std::uint64_t(blockIdx.x) * Threads * Items + std::uint64_t(warp) * warp_elements;
  const int valid = warp_begin >= n
                        ? 0
                        : static_cast<int>(std::min<std::uint64_t>(warp_elements, n - warp_begin));
  const exchange ex{stage[warp]};
  ex.load(in + warp_begin, valid, lane);
  if constexpr (!Copy) {
    float items[Items];
#pragma unroll
    for (int k = 0; k < Items; ++k)
      items[k] = ex.blocked(lane, k);
#pragma unroll
    for (int k = 1; k < Items; ++k)
      items[k] += items[k - 1];
    const auto block = gc::block_scan<Threads, float>{scan_storage}.exclusive_scan(
        gc::partial<float>{items[Items - 1], true}, gp::plus{});
    const float before = block.exclusive_prefix.valid ? block.exclusive_prefix.value : 0.0f;
    __syncwarp();
#pragma unroll
    for (int k = 0; k < Items; ++k)
      ex.set_blocked(lane, k, before + items[k]);
  }
  ex.store(out + warp_begin, valid, lane);
}

template <int Threads, int Items, int MinBlocks, bool Copy>
void time_without_lookback(const float* in, float* out, std::size_t n, float cub_ms) {
  const auto tiles = static_cast<unsigned>((n + Threads * Items - 1) / (Threads * Items));
  const float ms = median_ms([&] {
    tiles_without_lookback<Threads, Items, MinBlocks, Copy><<<tiles, Threads>>>(in, out, n);
  });
  CHECK_CUDA(cudaGetLastError());
  std::printf("  %4d threads x %2d items, %2d blocks/SM, %-22s %9.1f us  %.2fx CUB  %5.0f GB/s\n",
              Threads, Items, MinBlocks, Copy ? "staged copy only:" : "no look-back:", ms * 1e3,
              cub_ms / ms, 2.0 * n * sizeof(float) / (ms * 1e6));
}

// (Called from a plain function: instantiated inside the variadic compare
// below, these templates crash nvcc 13.0's front end.)
void time_data_paths(const float* in, float* out, std::size_t n, float cub_ms) {
  time_without_lookback<512, 16, 4, true>(in, out, n, cub_ms);
  time_without_lookback<512, 16, 4, false>(in, out, n, cub_ms);
  time_without_lookback<512, 16, 2, false>(in, out, n, cub_ms);
  time_without_lookback<256, 16, 8, false>(in, out, n, cub_ms);
  time_without_lookback<256, 40, 4, false>(in, out, n, cub_ms);
  time_without_lookback<128, 24, 16, false>(in, out, n, cub_ms);
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
  const cub_call cub_scan([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n);
  });
  const float cub_ms = median_ms(cub_scan);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> cub_out(n);
  CHECK_CUDA(cudaMemcpy(cub_out.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("inclusive float sum, n = 2^%d: CUB %.1f us (%.0f GB/s read + written)\n",
              int(std::log2(double(n))), cub_ms * 1e3, 2.0 * n * sizeof(float) / (cub_ms * 1e6));
  const float copy_ms = median_ms(
      [&] { CHECK_CUDA(cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice)); });
  std::printf("  cudaMemcpy device to device: %.1f us (%.0f GB/s read + written)\n", copy_ms * 1e3,
              2.0 * n * sizeof(float) / (copy_ms * 1e6));
  time_data_paths(in, out, n, cub_ms);
  std::vector<float> one_word_out;
  (run_variant(Configs{}, in, out, n, cub_out, one_word_out, cub_ms), ...);
  free_device(in, out);
}

// ---- Segmented scans: float sums with one-byte head flags (segments of
// 1024, as the harness's row) against cub::DeviceScan::InclusiveSumByKey
// with int32 keys (the segment's index: the same segments).

// The head-flag fetch under another type, so that it takes the general
// per-element path (one byte load per element, no flag prefetch): the
// segmented scan before the vector flag loads.
struct bytewise_head_flags {
  gp::detail::head_flag_fetch<float, std::uint8_t> flags;
  __host__ __device__ gp::flagged<float> operator()(float x, std::uint64_t i) const {
    return flags(x, i);
  }
};

template <int Threads, int Items, int MinBlocks, gc::scan_staging Staging, int Prefetch,
          class Fetch>
void run_segmented_variant(const char* label, const float* in, const std::uint8_t* flags,
                           float* out, std::size_t n, const std::vector<float>& cub_out,
                           float cub_ms, float cub_queued_ms) {
  const gp::detail::head_flag_fetch<float, std::uint8_t> head_flags{flags};
  Fetch fetch;
  if constexpr (std::is_same_v<Fetch, bytewise_head_flags>) {
    fetch.flags = head_flags;
  } else {
    fetch = head_flags;
  }
  const auto scan = [&] {
    gc::launch_scan<false, Threads, gc::scan_lookback_words, Items, MinBlocks, 0, 0, Prefetch,
                    Staging>(in, out, n, gp::flagged<float>{}, gp::segmented<gp::plus>{}, fetch,
                             nullptr);
  };
  const float ms = median_ms(scan);
  const float queued_ms = median_queued_ms(scan);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double scale = std::max(1.0, std::fabs(double(cub_out[i])));
    worst = std::max(worst, std::fabs(double(got[i]) - double(cub_out[i])) / scale);
  }
  using shape =
      gc::scan_tile_shape<Threads, Items, MinBlocks, Staging, float, float, gp::flagged<float>>;
  std::printf(
      "  %-34s %4d x %2d, %d blocks/SM, %-9s prefetch %3d: %8.1f us %.3fx CUB, queued %8.1f us "
      "%.3fx  %5.0f GB/s  max rel diff %.1e\n",
      label, shape::threads, shape::items, shape::min_blocks,
      shape::rescan ? "rescan," : "registers,", Prefetch, ms * 1e3, cub_ms / ms, queued_ms * 1e3,
      cub_queued_ms / queued_ms, 9.0 * n / (ms * 1e6), worst);
}

void compare_segmented(std::size_t n) {
  std::mt19937_64 g(n + 1);
  std::vector<float> host(n);
  std::vector<std::uint8_t> host_flags(n);
  std::vector<int> host_keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = float(double(g() >> 11) * 0x1p-53 * 2.0 - 1.0);
    host_flags[i] = i % 1024 == 0;
    host_keys[i] = static_cast<int>(i / 1024);
  }
  float *in, *out;
  std::uint8_t* flags;
  int* keys;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&flags, n));
  CHECK_CUDA(cudaMalloc(&keys, n * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(flags, host_flags.data(), n, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(keys, host_keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  const cub_call cub_scan([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, in, out, n);
  });
  const float cub_ms = median_ms(cub_scan);
  const float cub_queued_ms = median_queued_ms(cub_scan);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> cub_out(n);
  CHECK_CUDA(cudaMemcpy(cub_out.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf(
      "segmented float sum, segments of 1024, n = 2^%d: CUB by key %.1f us, queued %.1f us "
      "(%.0f GB/s of values, keys and results)\n",
      int(std::log2(double(n))), cub_ms * 1e3, cub_queued_ms * 1e3, 12.0 * n / (cub_ms * 1e6));
  using flag_vectors = gp::detail::head_flag_fetch<float, std::uint8_t>;
  constexpr auto registers = gc::scan_staging::registers;
  constexpr auto rescan = gc::scan_staging::rescan;
  constexpr int p = gc::scan_prefetch_tiles;
  run_segmented_variant<512, 16, 2, registers, p, bytewise_head_flags>(
      "byte flag loads (earlier default)", in, flags, out, n, cub_out, cub_ms, cub_queued_ms);
  run_segmented_variant<512, 16, 2, registers, p, flag_vectors>("vector flag loads", in, flags, out,
                                                                n, cub_out, cub_ms, cub_queued_ms);
  run_segmented_variant<0, 0, 0, gc::scan_staging::automatic, p, flag_vectors>(
      "library default", in, flags, out, n, cub_out, cub_ms, cub_queued_ms);
  run_segmented_variant<256, 40, 4, rescan, 0, flag_vectors>("no prefetch", in, flags, out, n,
                                                             cub_out, cub_ms, cub_queued_ms);
  run_segmented_variant<256, 40, 3, rescan, p, flag_vectors>("", in, flags, out, n, cub_out, cub_ms,
                                                             cub_queued_ms);
  run_segmented_variant<256, 32, 4, rescan, p, flag_vectors>("", in, flags, out, n, cub_out, cub_ms,
                                                             cub_queued_ms);
  run_segmented_variant<256, 24, 5, rescan, p, flag_vectors>("", in, flags, out, n, cub_out, cub_ms,
                                                             cub_queued_ms);
  run_segmented_variant<512, 16, 4, rescan, p, flag_vectors>("", in, flags, out, n, cub_out, cub_ms,
                                                             cub_queued_ms);
  run_segmented_variant<512, 16, 3, rescan, p, flag_vectors>("", in, flags, out, n, cub_out, cub_ms,
                                                             cub_queued_ms);
  free_device(keys, flags, in, out);
}

// --profile [LOG2N]: one default scan and one CUB scan of 2^LOG2N floats
// (default 2^26), nothing
// else, for Nsight Compute to compare the two kernels.
void profile_once(int log2n) {
  const std::size_t n = std::size_t{1} << log2n;
  std::vector<float> host(n);
  std::mt19937_64 g(1);
  for (auto& v : host)
    v = float(double(g() >> 11) * 0x1p-53);
  float *in, *out;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  gc::launch_scan<false>(in, out, n, 0.0f, gp::plus{}, gp::detail::unary_fetch<gp::identity>{},
                         nullptr);
  const cub_call cub_scan([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n);
  });
  cub_scan();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("profiled one gpuprim and one CUB inclusive scan of 2^%d floats\n", log2n);
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--profile") == 0) {
    profile_once(argc > 2 ? std::atoi(argv[2]) : 26);
    return 0;
  }
  // --quick: the library's default alone, at each size.
  if (argc > 1 && std::strcmp(argv[1], "--quick") == 0) {
    for (std::size_t n : {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28})
      compare<scan_config<0, 2>>(n);
    return 0;
  }
  // --segmented: only the segmented scans (below, after the plain ones).
  if (argc > 1 && std::strcmp(argv[1], "--segmented") == 0) {
    for (std::size_t n : {std::size_t{1} << 24, std::size_t{1} << 28})
      compare_segmented(n);
    return 0;
  }
  // The one-word window at the default tile (256 x 40 at 4 blocks per SM)
  // first: its bits are the reference; then the library's default (2
  // words, a 1 us sleep before the first poll, prefetching the input of
  // the tile 64 tiles ahead into L2), no prefetch, no sleep, other
  // prefetch distances, and tiles near the default (36 elements a thread
  // at 3 and 4 blocks per SM, 256 x 40 at 3, 384 x 24 at 3), and as many
  // elements a tile spread over more threads (1024 x 8 at one block per
  // SM, 512 x 16 and x 20 at two: more warps per tile
  // where a small input gives about one tile per SM), and smaller tiles
  // with more warps per SM (256 x 16 at 8 and 6 blocks, 256 x 24 at 5):
  // without the look-back, 256 x 16 at 8 blocks reads and writes at the
  // copy's rate, where the default tile does not.
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28})
    compare<scan_config<0, 1>, scan_config<0, 2>, scan_config<0, 2, 0, 0, 0, 0, 0>,
            scan_config<0, 2, 0, 0, 0>, scan_config<0, 2, 0, 0, 1000, 0, 128>,
            scan_config<0, 2, 0, 0, 1000, 0, 96>, scan_config<0, 2, 0, 0, 1000, 0, 160>,
            scan_config<256, 2, 36, 3>, scan_config<256, 2, 36, 3, 1000, 0, 128>,
            scan_config<256, 2, 36, 4>, scan_config<256, 2, 36, 4, 1000, 0, 128>,
            scan_config<256, 2, 40, 3>, scan_config<384, 2, 24, 3>, scan_config<1024, 2, 8, 1>,
            scan_config<512, 2, 20, 2>, scan_config<512, 2, 16, 2>, scan_config<256, 2, 16, 8>,
            scan_config<256, 2, 16, 6>, scan_config<256, 2, 24, 5>>(n);
  for (std::size_t n : {std::size_t{1} << 24, std::size_t{1} << 28})
    compare_segmented(n);
}
