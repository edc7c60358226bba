// Probe of the batched sort of arrays that fill a shared-memory tile (the
// arrays of 1024 float keys of the hardware-limits round): times the
// library's dispatch (gc::sort_arrays, which gives full aligned arrays the
// full-tile kernel sort_full_tiles) against the kernel that partial and
// unaligned arrays of one tile still take (sort_tiles_in_shared: striped
// lanes, a guard on every compare-exchange, 3 of the 55 steps of 1024 keys
// in shared memory), and a device-to-device copy of the same bytes. Both
// are bound by instruction issue; the full-tile kernel needs no guards,
// moves the steps with partners under 8 apart inside a lane (blocked lanes
// of 8 consecutive keys) and takes one min or max per key a step.
// Checks: the two outputs are equal bit for bit, and every array equals
// std::sort of its input (float keys in gp::sort's order: NaN last; random
// keys with -0.0, +-inf and NaNs mixed in).
// Built and run by scripts/device-check.sh --probe-batched-sort
// (tune-batched_sort.txt). Medians of 20 isolated calls after 3 warm-ups.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/cuda/device/device_sorting_network.cuh"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

namespace {

using codec = gc::sort_codec<float, gp::sort_less>;
using key = codec::key;  // std::uint32_t

constexpr int items = gc::network_items<key>;  // keys a lane

// gp::sort's order of floats: numbers ascending (-0.0 and 0.0 by their
// bits, as the radix codec orders them), then NaNs by their bits.
bool sort_order(float a, float b) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(a), y = std::bit_cast<std::uint32_t>(b);
  const std::uint32_t kx = (x & 0x80000000u) ? ~x : (x | 0x80000000u);
  const std::uint32_t ky = (y & 0x80000000u) ? ~y : (y | 0x80000000u);
  const std::uint32_t shift = 0x007FFFFFu;  // the flipped pattern of -inf
  return std::uint32_t(kx - shift) < std::uint32_t(ky - shift);
}

std::vector<float> random_keys(std::size_t n, bool special) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> uniform(-1000.0f, 1000.0f);
  std::vector<float> keys(n);
  for (float& k : keys)
    k = uniform(rng);
  if (special) {
    const float specials[] = {-0.0f,
                              0.0f,
                              std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(),
                              -std::numeric_limits<float>::quiet_NaN(),
                              1.0f,
                              1.0f};
    std::uniform_int_distribution<std::size_t> where(0, n - 1);
    for (std::size_t i = 0; i < n / 16; ++i)
      keys[where(rng)] = specials[i % 8];
  }
  return keys;
}

bool all_right = true;  // every output checked so far equal and sorted

template <unsigned Tile>
void compare(unsigned arrays, bool special) {
  const std::size_t n = std::size_t(arrays) * Tile;
  const std::vector<float> input = random_keys(n, special);
  float *in, *guarded, *library;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&guarded, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&library, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, input.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const std::size_t bytes = n * sizeof(float);

  // Each timed call sorts a fresh copy: the copy is timed alone and taken off.
  const auto copy = [&](float* to) {
    CHECK_CUDA(cudaMemcpyAsync(to, in, bytes, cudaMemcpyDeviceToDevice, nullptr));
  };
  const float copy_ms = median_ms([&] { copy(guarded); });
  // The kernel of partial or unaligned arrays of one tile, launched as the
  // library launches it for them.
  const unsigned threads = std::clamp(Tile / unsigned(items), 32u, gc::network_threads);
  const auto run_guarded = [&] {
    gc::sort_tiles_in_shared<items, codec, float, gc::uniform_arrays>
        <<<arrays, threads, Tile * sizeof(key)>>>(guarded, gc::uniform_arrays{Tile}, 1, Tile, false,
                                                  codec{gp::sort_less{}});
    CHECK_CUDA(cudaGetLastError());
  };
  // The library's dispatch (gp::sort_batched's kernels): the full-tile
  // kernel where it applies.
  const auto run_library = [&] {
    gc::sort_arrays(library, gc::uniform_arrays{Tile}, arrays, Tile, true, codec{gp::sort_less{}},
                    nullptr);
  };
  const float guarded_ms = median_ms([&] {
                             copy(guarded);
                             run_guarded();
                           }) -
                           copy_ms;
  const float library_ms = median_ms([&] {
                             copy(library);
                             run_library();
                           }) -
                           copy_ms;

  copy(guarded);
  run_guarded();
  copy(library);
  run_library();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> got_guarded(n), got_library(n);
  CHECK_CUDA(cudaMemcpy(got_guarded.data(), guarded, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(got_library.data(), library, bytes, cudaMemcpyDeviceToHost));
  const bool same = std::memcmp(got_guarded.data(), got_library.data(), bytes) == 0;
  std::size_t wrong_arrays = 0;
  std::vector<float> expected(Tile);
  for (unsigned a = 0; a < arrays; ++a) {
    std::copy_n(input.begin() + std::size_t(a) * Tile, Tile, expected.begin());
    std::sort(expected.begin(), expected.end(), sort_order);
    if (std::memcmp(expected.data(), got_library.data() + std::size_t(a) * Tile,
                    Tile * sizeof(float)) != 0)
      ++wrong_arrays;
  }
  // Read + write of every key, over the copy's read + write of the same bytes.
  const double gbs_copy = 2.0 * bytes / (copy_ms * 1e6);
  std::printf("2^%d arrays of %u floats%s: copy %.1f us (%.0f GB/s)\n", int(std::log2(arrays)),
              Tile, special ? " (with -0, +-inf, NaN)" : "", copy_ms * 1e3, gbs_copy);
  std::printf("  %-44s %9.1f us  %5.1f%% of copy\n", "sort_tiles_in_shared (partial arrays)",
              guarded_ms * 1e3, 100.0 * copy_ms / guarded_ms);
  std::printf("  %-44s %9.1f us  %5.1f%% of copy  %.2fx sort_tiles_in_shared  %s; %s\n",
              "library (gc::sort_arrays of full arrays)", library_ms * 1e3,
              100.0 * copy_ms / library_ms, guarded_ms / library_ms,
              same ? "same as sort_tiles_in_shared" : "DIFFERS FROM sort_tiles_in_shared",
              wrong_arrays == 0 ? "every array sorted"
                                : (std::to_string(wrong_arrays) + " ARRAYS WRONG").c_str());
  if (!same || wrong_arrays != 0) all_right = false;
  free_device(in, guarded, library);
}

}  // namespace

int main() {
  compare<1024>(1u << 14, true);
  compare<1024>(1u << 14, false);
  compare<1024>(1u << 17, false);
  compare<512>(1u << 15, true);
  compare<2048>(1u << 13, true);
  compare<256>(1u << 16, true);
  return all_right ? 0 : 1;
}
