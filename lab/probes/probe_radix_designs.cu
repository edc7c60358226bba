// Probe of the GPU radix sort's designs against cub::DeviceRadixSort in one
// process, per key distribution (lab/bench/key_distributions.hpp), uint32
// keys, out of place:
//   1. the sort: production (gp::detail::cuda_radix_sort: skipped constant
//      digits, tiles by size) against CUB over all bits, each checked
//      against CUB bit for bit (both sorts are stable);
//   2. its first kernel alone, the digit histogram: production's
//      radix_digit_histograms (one shared atomic add a key and pass) against
//      a candidate that counts each run of equal digits in adjacent lanes
//      once (radix_digit_histograms_runs, below), its counts checked
//      against production's. On sorted keys the high digits are equal
//      across a warp, so production's adds of a warp land on one counter
//      and serialize; bench/results/attempts-2026-12-01-radix.md estimates
//      that at about 2.6 ms of the 3.2 ms between sorted and uniform keys
//      at 2^28, which the candidate's row tests.
// Not part of the default build or the tests; on the GPU machine:
// cmake --build <build> --target gpuprim_lab_probe_radix_designs.
//
// Prints per distribution and size: CUB's sort, production's sort (time,
// CUB / production, same as CUB), then both histograms (time, same counts).
// Medians of 20 isolated calls after 3 warm-ups, CUDA events.
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>

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

// production's radix_digit_histograms, except that the lanes of a warp
// whose digit equals the lane before's add nothing and each run's first
// lane adds the run's length: counting needs no order, so any runs will
// do. Runs are looked for only when a vote finds some adjacent lanes equal
// (on uniform keys about one pass in eight per warp).
template <class K>
__global__ void __launch_bounds__(256)
    radix_digit_histograms_runs(const K* keys, std::uint64_t n, radix_digit<K> first, int passes,
                                unsigned* hist) {
  constexpr int max_passes = 8 * sizeof(K) / 8;
  __shared__ unsigned counts[max_passes][radix_digits];
  for (int p = 0; p < passes; ++p)
    counts[p][threadIdx.x] = 0;
  __syncthreads();
  const int lane = threadIdx.x % 32;
  auto count_plain = [&](K key) {
    const auto bits = radix_key<K>::to_bits(key, first.descending);
    for (int p = 0; p < passes; ++p) {
      const unsigned digit = static_cast<unsigned>(bits >> (first.shift + 8 * p)) &
                             (p + 1 == passes ? first.mask : 0xffu);
      atomicAdd(&counts[p][digit], 1u);
    }
  };
  // Every lane of the warp calls it, with keys of consecutive lanes.
  auto count_runs = [&](K key) {
    const auto bits = radix_key<K>::to_bits(key, first.descending);
#pragma unroll
    for (int p = 0; p < max_passes; ++p) {
      if (p < passes) {
        const unsigned digit = static_cast<unsigned>(bits >> (first.shift + 8 * p)) &
                               (p + 1 == passes ? first.mask : 0xffu);
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
  };
  // Grid-stride over whole warps of 32 consecutive keys, 4 loaded at once
  // (as production); the tail, where a warp's keys run past n, plainly.
  constexpr int loads = 4;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
  const std::uint64_t warp_last = 31 - lane;  // i + warp_last: the warp's last key
  for (; i + warp_last + (loads - 1) * stride < n; i += loads * stride) {
    K k[loads];
#pragma unroll
    for (int j = 0; j < loads; ++j)
      k[j] = keys[i + j * stride];
#pragma unroll
    for (int j = 0; j < loads; ++j)
      count_runs(k[j]);
  }
  for (; i < n; i += stride)
    count_plain(keys[i]);
  __syncthreads();
  for (int p = 0; p < passes; ++p) {
    const unsigned c = counts[p][threadIdx.x];
    if (c) atomicAdd(&hist[p * radix_digits + threadIdx.x], c);
  }
}

}  // namespace gpuprim::cuda_impl

namespace {

struct distribution {
  const char* name;
  gb::key_distribution d;
};

// One histogram kernel's counts of all four digits of n keys, timed.
template <class Kernel>
float time_histogram(Kernel kernel, const std::uint32_t* keys, std::size_t n, unsigned* hist,
                     std::vector<unsigned>& counts) {
  constexpr int threads = 256;
  const gc::radix_digit<std::uint32_t> digit{0, 0xffu, false};
  const unsigned blocks = static_cast<unsigned>(std::min<std::uint64_t>(
      gc::ceil_div(n, threads * 16), std::uint64_t(gc::current_multiprocessor_count()) * 8));
  auto run = [&] {
    CHECK_CUDA(cudaMemsetAsync(hist, 0, 4 * 256 * sizeof(unsigned)));
    kernel<<<blocks, threads>>>(keys, n, digit, 4, hist);
    CHECK_CUDA(cudaGetLastError());
  };
  const float ms = median_ms(run);
  run();
  CHECK_CUDA(cudaDeviceSynchronize());
  counts.resize(4 * 256);
  CHECK_CUDA(
      cudaMemcpy(counts.data(), hist, counts.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  return ms;
}

void compare(const distribution& dist, std::size_t n) {
  std::vector<std::uint32_t> host_keys(n);
#pragma omp parallel for
  for (std::size_t i = 0; i < n; ++i)
    host_keys[i] = gb::distribution_bits(dist.d, i, n, 20261201);
  std::uint32_t *keys, *keys_out;
  unsigned* hist;
  CHECK_CUDA(cudaMalloc(&keys, n * 4));
  CHECK_CUDA(cudaMalloc(&keys_out, n * 4));
  CHECK_CUDA(cudaMalloc(&hist, 4 * 256 * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(keys, host_keys.data(), n * 4, cudaMemcpyHostToDevice));

  const cub_call cub_sort([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, keys_out, n);
  });
  const float cub_ms = median_ms(cub_sort);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<std::uint32_t> cub_keys(n), got(n);
  CHECK_CUDA(cudaMemcpy(cub_keys.data(), keys_out, n * 4, cudaMemcpyDeviceToHost));

  const auto plan =
      gp::detail::make_radix_sort_plan<std::uint32_t>(n, gp::sort_order::ascending, {}, 0, "probe");
  CHECK_CUDA(cudaMemset(keys_out, 0, n * 4));
  const float sort_ms = median_ms(
      [&] { gp::detail::cuda_radix_sort(keys, keys_out, nullptr, nullptr, plan, nullptr); });
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(got.data(), keys_out, n * 4, cudaMemcpyDeviceToHost));
  const bool same = std::memcmp(got.data(), cub_keys.data(), n * 4) == 0;

  std::vector<unsigned> plain_counts, runs_counts;
  const float plain_ms =
      time_histogram(gc::radix_digit_histograms<std::uint32_t>, keys, n, hist, plain_counts);
  const float runs_ms =
      time_histogram(gc::radix_digit_histograms_runs<std::uint32_t>, keys, n, hist, runs_counts);

  std::printf("%-20s n = 2^%.0f: CUB %9.1f us; production %9.1f us, %.2fx CUB, %s\n", dist.name,
              std::log2(double(n)), cub_ms * 1e3, sort_ms * 1e3, cub_ms / sort_ms,
              same ? "same as CUB" : "DIFFERENT FROM CUB");
  std::printf("%-20s   histogram: production %8.1f us, runs %8.1f us (%.2fx), %s\n", "",
              plain_ms * 1e3, runs_ms * 1e3, plain_ms / runs_ms,
              runs_counts == plain_counts ? "same counts" : "DIFFERENT COUNTS");
  free_device(keys, keys_out, hist);
}

}  // namespace

int main() {
  const distribution distributions[] = {
      {"uniform", gb::key_distribution::uniform},
      {"sorted", gb::key_distribution::sorted},
      {"16 distinct values", gb::key_distribution::sixteen_values},
      {"below 2^16", gb::key_distribution::below_2_16},
      {"Zipf-like", gb::key_distribution::zipf},
      {"low entropy", gb::key_distribution::low_entropy},
  };
  // 2^24 + 77: a warp's keys run past the end (the plain tail).
  for (std::size_t n : {(std::size_t{1} << 24) + 77, std::size_t{1} << 28})
    for (const distribution& d : distributions)
      compare(d, n);
}
