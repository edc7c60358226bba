// Probe of the GPU radix sort's designs against cub::DeviceRadixSort in one
// process, per key distribution (lab/bench/key_distributions.hpp) and key
// type, out of place, all bits (nobody passes bit bounds):
//   1. the sort, three designs of the same onesweep kernels, all through
//      cuda_impl::radix_sort_by_size with the tuner's launch parameters:
//      "all passes" (every 8-bit pass sorts and the histogram adds one a
//      key and pass: the design before constant digits were skipped,
//      radix_launch_config::skip_constant_digits false; also rung 4 of the
//      sort ladder), "skip" (production: a pass whose digit is the same
//      in all n keys returns at once, its route decided on the device) and
//      "skip on a resident grid" (a candidate, radix_sort_by_size's
//      ResidentGrid, radix_onesweep_pass_resident: the passes' blocks are
//      as many as are resident and take tiles from a counter, so a skipped
//      pass is one wave and each block reads its route once), and CUB over all bits; each output
//      checked against CUB's bit for bit (all four sorts are stable);
//   2. the first kernel alone, the digit histogram, three ways: "plain"
//      (production: one shared atomic add a key and pass), "warp" (a
//      candidate: a digit the same in a whole warp's keys added once,
//      radix_count_warp_uniform) and "runs" (a candidate, radix_count_runs
//      below: each run of equal digits in adjacent lanes added once), all
//      three countings of production's radix_digit_histograms, counts
//      checked against plain's. The candidates were meant for sorted,
//      narrow or equal keys, whose adds land on one counter; on an H100
//      both were slower than plain on every distribution
//      (bench/results/h100-2026-12-08-sort-designs.md).
// Not part of the default build or the tests; on the GPU machine:
// cmake --build <build> --target gpuprim_lab_probe_radix_designs
// (lab/probes/sort_skip_device_check.sh builds and runs it).
//
// Prints first what a skipped pass costs (time_skipped_pass), then per
// distribution, type and size: CUB's sort, the designs (time, CUB /
// design, skip against all passes, resident grid against skip, same as
// CUB), then the three histograms (time, same counts). Medians of 20 isolated calls after 3
// warm-ups, CUDA events.
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gpuprim/cuda/device/device_radix_sort.cuh"
#include "lab/bench/key_distributions.hpp"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;
namespace gb = gpuprim::bench;

namespace gpuprim::cuda_impl {

// A counting of a full warp's keys for radix_digit_histograms (as
// radix_count_warp_uniform) in which the lanes of a warp whose digit
// equals the lane before's add nothing and each run's first lane adds the
// run's length: counting needs no order, so any runs will do. Runs are
// looked for only when a vote finds some adjacent lanes equal (on uniform
// keys about one pass in eight per warp).
struct radix_count_runs {
  template <class K>
  static __device__ void count(unsigned (*counts)[radix_digits], K key, radix_digit<K> first,
                               int passes) {
    const auto bits = radix_key<K>::to_bits(key, first.descending);
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int p = 0; p < int(sizeof(K)); ++p) {
      if (p < passes) {
        const unsigned digit = radix_pass_digit(bits, first, p, passes);
        const unsigned left = __shfl_up_sync(full_warp_mask, digit, 1);
        const bool same = lane > 0 && digit == left;
        const unsigned same_lanes = __ballot_sync(full_warp_mask, same);
        if (same_lanes == 0) {
          atomicAdd(&counts[p][digit], 1u);
        } else if (!same) {
          const unsigned later = ~same_lanes & ~((2u << lane) - 1u);  // heads above this lane
          atomicAdd(&counts[p][digit], unsigned((later ? __ffs(later) - 1 : 32) - lane));
        }
      }
    }
  }
};

}  // namespace gpuprim::cuda_impl

namespace {

struct distribution {
  const char* name;
  gb::key_distribution d;
};

template <class K>
const char* type_name() {
  if constexpr (std::is_same_v<K, float>) return "float";
  if constexpr (std::is_same_v<K, std::uint64_t>) return "uint64";
  return "uint32";
}

// Key i of a distribution: its 32-bit pattern, as a float's bits or
// widened to 64 bits (below 2^32).
template <class K>
K key_of(gb::key_distribution d, std::size_t i, std::size_t n) {
  const std::uint32_t bits = gb::distribution_bits(d, i, n, 20261201);
  if constexpr (sizeof(K) == 8) {
    return K{bits};
  } else {
    return std::bit_cast<K>(bits);
  }
}

// One histogram kernel's counts of every digit of n keys, timed.
template <class K, class Kernel>
float time_histogram(Kernel kernel, const K* keys, std::size_t n, unsigned* hist,
                     std::vector<unsigned>& counts) {
  constexpr int threads = 256;
  constexpr int passes = int(sizeof(K));
  const gc::radix_digit<K> digit{0, 0xffu, false};
  const unsigned blocks = static_cast<unsigned>(std::min<std::uint64_t>(
      gc::ceil_div(n, threads * 16), std::uint64_t(gc::current_multiprocessor_count()) * 8));
  auto run = [&] {
    CHECK_CUDA(cudaMemsetAsync(hist, 0, passes * 256 * sizeof(unsigned)));
    kernel<<<blocks, threads>>>(keys, n, digit, passes, hist);
    CHECK_CUDA(cudaGetLastError());
  };
  const float ms = median_ms(run);
  run();
  CHECK_CUDA(cudaDeviceSynchronize());
  counts = host_copy(hist, passes * 256);
  return ms;
}

template <class K>
void compare(const distribution& dist, std::size_t n) {
  std::vector<K> host_keys(n);
#pragma omp parallel for
  for (std::size_t i = 0; i < n; ++i)
    host_keys[i] = key_of<K>(dist.d, i, n);
  K* keys = device_copy(host_keys);
  K* keys_out = device_array<K>(n);
  unsigned* hist = device_array<unsigned>(8 * 256);

  const cub_call cub_sort([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, keys_out, n);
  });
  const float cub_ms = median_ms(cub_sort);
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<K> cub_keys = host_copy(keys_out, n);

  // Both designs at the tuner's launch parameters (as gp::sort of keys).
  const auto plan =
      gp::detail::make_radix_sort_plan<K>(n, gp::sort_order::ascending, {}, 0, "probe");
  const gp::tuning::config c =
      gp::tuning::choose(gp::tuning::algorithm::radix_sort, gp::tuning::element_type_of<K>(), n)
          .choice;
  auto design = [&](bool skip, bool resident, bool& same) {
    const gc::radix_launch_config config{c[0], c[1], skip};
    CHECK_CUDA(cudaMemset(keys_out, 0, n * sizeof(K)));
    const float ms = median_ms([&] {
      if (resident) {
        gc::radix_sort_by_size<K, gc::no_values, true>(keys, keys_out, nullptr, nullptr, plan,
                                                       nullptr, config);
      } else {
        gc::radix_sort_by_size<K, gc::no_values>(keys, keys_out, nullptr, nullptr, plan, nullptr,
                                                 config);
      }
    });
    CHECK_CUDA(cudaDeviceSynchronize());
    same = std::memcmp(host_copy(keys_out, n).data(), cub_keys.data(), n * sizeof(K)) == 0;
    return ms;
  };
  bool all_same = false, skip_same = false, resident_same = false;
  const float all_ms = design(false, false, all_same);
  const float skip_ms = design(true, false, skip_same);
  const float resident_ms = design(true, true, resident_same);

  std::vector<unsigned> plain_counts, warp_counts, runs_counts;
  const float plain_ms =
      time_histogram<K>(gc::radix_digit_histograms<K, void>, keys, n, hist, plain_counts);
  const float warp_ms = time_histogram<K>(
      gc::radix_digit_histograms<K, gc::radix_count_warp_uniform>, keys, n, hist, warp_counts);
  const float runs_ms = time_histogram<K>(gc::radix_digit_histograms<K, gc::radix_count_runs>, keys,
                                          n, hist, runs_counts);

  std::printf(
      "%-18s %-6s 2^%-5.2f CUB %8.1f us | all passes %8.1f us %.2fx CUB, %s | skip %8.1f us "
      "%.2fx CUB, %.2fx all passes, %s\n",
      dist.name, type_name<K>(), std::log2(double(n)), cub_ms * 1e3, all_ms * 1e3, cub_ms / all_ms,
      all_same ? "same as CUB" : "DIFFERENT FROM CUB", skip_ms * 1e3, cub_ms / skip_ms,
      all_ms / skip_ms, skip_same ? "same as CUB" : "DIFFERENT FROM CUB");
  std::printf("%-18s   skip on a resident grid %8.1f us %.2fx CUB, %.2fx skip, %s\n", "",
              resident_ms * 1e3, cub_ms / resident_ms, skip_ms / resident_ms,
              resident_same ? "same as CUB" : "DIFFERENT FROM CUB");
  std::printf(
      "%-18s   histogram: plain %7.1f us | warp %7.1f us %.2fx plain, %s | runs %7.1f us "
      "%.2fx plain, %s\n",
      "", plain_ms * 1e3, warp_ms * 1e3, plain_ms / warp_ms,
      warp_counts == plain_counts ? "same counts" : "DIFFERENT COUNTS", runs_ms * 1e3,
      plain_ms / runs_ms, runs_counts == plain_counts ? "same counts" : "DIFFERENT COUNTS");
  std::fflush(stdout);
  free_device(keys, keys_out, hist);
}

__global__ void empty_kernel() {}

// What a skipped pass costs: one pass launch over the tiles of 2^28 uint32
// keys whose route says skip (every block reads the route and returns;
// the pass kernel's shared memory still limits how many blocks an SM
// holds), the same with the route passed by value (no load), on a
// resident grid (one wave), and empty kernels of one block and of as many
// blocks as tiles without shared memory.
void time_skipped_pass() {
  using K = std::uint32_t;
  using V = gc::no_values;
  constexpr int items = gc::radix_items<K, V>;
  const std::size_t n = std::size_t{1} << 28;
  const unsigned tiles = static_cast<unsigned>(gc::ceil_div(n, 256 * items));
  gc::radix_route* route = device_array<gc::radix_route>(1);
  CHECK_CUDA(cudaMemset(route, 0, sizeof(gc::radix_route)));  // radix_skip
  const gc::radix_route skip{};
  const auto pass =
      gc::radix_onesweep_pass<K, V, items, gc::radix_lookback_window,
                              gc::radix_pass_min_blocks<K, items>, gc::radix_prefetch_tiles<V>>;
  const gc::radix_buffers<K, V> buffers{};
  const gc::radix_digit<K> digit{0, 0xffu, false};
  const gc::tile_lookback<unsigned> lookback{nullptr, nullptr, 1};
  const auto resident_pass =
      gc::radix_onesweep_pass_resident<K, V, items, gc::radix_lookback_window,
                                       gc::radix_pass_min_blocks<K, items>,
                                       gc::radix_prefetch_tiles<V>>;
  const float device_route_ms = median_ms([&] {
    pass<<<tiles, 256>>>(buffers, n, digit, nullptr, lookback, 0, skip, route);
    CHECK_CUDA(cudaGetLastError());
  });
  const float host_route_ms = median_ms([&] {
    pass<<<tiles, 256>>>(buffers, n, digit, nullptr, lookback, 0, skip, nullptr);
    CHECK_CUDA(cudaGetLastError());
  });
  const unsigned resident = gc::persistent_grid_size(resident_pass, 256, 0);
  unsigned* counter = device_array<unsigned>(1);
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(unsigned)));
  const float resident_ms = median_ms([&] {
    resident_pass<<<resident, 256>>>(buffers, n, digit, nullptr, lookback, 0, skip, route, counter);
    CHECK_CUDA(cudaGetLastError());
  });
  const float one_block_ms = median_ms([&] { empty_kernel<<<1, 1>>>(); });
  const float empty_grid_ms = median_ms([&] { empty_kernel<<<tiles, 256>>>(); });
  std::printf(
      "skipped pass, %u tiles (2^28 uint32 keys): a block a tile, route on the device %.1f us, "
      "route by value %.1f us; resident grid of %u blocks %.1f us; empty kernel of 1 block "
      "%.1f us, of %u blocks %.1f us\n",
      tiles, device_route_ms * 1e3, host_route_ms * 1e3, resident, resident_ms * 1e3,
      one_block_ms * 1e3, tiles, empty_grid_ms * 1e3);
  std::fflush(stdout);
  free_device(route, counter);
}

}  // namespace

int main() {
  time_skipped_pass();
  using kd = gb::key_distribution;
  enum key { u32, f32, u64 };
  struct row {
    distribution dist;
    key type;
    std::size_t n;
  };
  const std::size_t big = std::size_t{1} << 28, mid = std::size_t{1} << 20;
  const std::size_t odd = (std::size_t{1} << 24) + 77;  // a warp's keys run past the end
  const row rows[] = {
      // The distributions of issue 43's "skip constant digits" design first.
      {{"uniform", kd::uniform}, u32, big},
      {{"below 2^16", kd::below_2_16}, u32, big},
      {{"below 2^20", kd::below_2_20}, u32, big},
      {{"all equal", kd::all_equal}, u32, big},
      {{"sorted", kd::sorted}, u32, big},
      {{"16 distinct values", kd::sixteen_values}, u32, big},
      {{"[100, 100.5)", kd::narrow_floats}, f32, big},
      {{"below 2^32", kd::uniform}, u64, big},
      {{"one top byte", kd::one_top_byte}, u32, big},
      {{"Zipf-like", kd::zipf}, u32, big},
      {{"low entropy", kd::low_entropy}, u32, big},
      // Where the launches weigh more, and tails.
      {{"uniform", kd::uniform}, u32, mid},
      {{"below 2^16", kd::below_2_16}, u32, mid},
      {{"uniform", kd::uniform}, u32, odd},
      {{"all equal", kd::all_equal}, u32, odd},
      {{"below 2^32", kd::uniform}, u64, odd},
  };
  for (const row& r : rows) {
    if (r.type == f32) {
      compare<float>(r.dist, r.n);
    } else if (r.type == u64) {
      compare<std::uint64_t>(r.dist, r.n);
    } else {
      compare<std::uint32_t>(r.dist, r.n);
    }
  }
}
