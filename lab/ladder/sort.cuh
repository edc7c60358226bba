// The sort ladder: 32-bit unsigned keys, ascending, oldest kernel first.
//
//  1. sort_bitonic_global: the bitonic network with one launch per
//     compare-exchange step, every key read and written through global
//     memory at every step (log2(P) (log2(P) + 1) / 2 launches).
//  2. sort_bitonic_shared: each tile of bitonic_ladder_tile keys is sorted
//     in shared memory in one launch; stages above the tile do their wide
//     steps in global memory (rung 1's kernel) and all steps within a tile
//     in one shared-memory launch.
//  3. sort_radix_split_by_scan: the one-bit split of the lectures, 32 times:
//     flag the keys whose bit is 0, exclusive-scan the flags (gp's scan),
//     and scatter stably (zeros to their scanned position, ones after all
//     zeros in order). O(n) work per bit instead of O(n log^2 n) in total.
//  4. The onesweep radix sort (cuda/device/radix_sort/onesweep.cuh) with
//     every pass sorting: 8 bits a pass, ranks within a tile, one pass per
//     digit.
//  5. The library's radix sort (gp::sort): rung 4 that skips the passes
//     whose digit is the same in every key, decided on the device.
// Rungs 1-2 pad the network to a power of two P; pairs with an end >= n
// are skipped (positions past n act as +infinity and are never touched).
// Kernels run on the host's launchers in lab/ladder/sort_ladder.cu.
#pragma once

#include <cstdint>

namespace gpuprim::ladder {

inline constexpr unsigned sort_ladder_threads = 256;
// Rung 2: keys per shared-memory tile, one pair per thread per step.
inline constexpr unsigned bitonic_ladder_tile = 2048;
inline constexpr unsigned bitonic_ladder_tile_threads = bitonic_ladder_tile / 2;

// Pair t's lower index for a step whose widest mask bit is `top`.
template <class U>
__device__ __forceinline__ U ladder_pair_low(U t, U top) {
  return ((t & ~(top - 1)) << 1) | (t & (top - 1));
}

__device__ __forceinline__ void ladder_compare_exchange(std::uint32_t* keys, std::uint64_t lo,
                                                        std::uint64_t hi) {
  const std::uint32_t a = keys[lo];
  const std::uint32_t b = keys[hi];
  if (b < a) {
    keys[lo] = b;
    keys[hi] = a;
  }
}

// 1. Baseline: one compare-exchange step of the whole array per launch; each
//    pair (lo, lo ^ mask) gets a thread. Every step costs a pass over memory.
__global__ void __launch_bounds__(sort_ladder_threads)
    sort_bitonic_global_step(std::uint32_t* __restrict__ keys, std::uint64_t n, std::uint64_t pairs,
                             std::uint64_t mask, std::uint64_t top) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  const std::uint64_t lo = ladder_pair_low(t, top);
  const std::uint64_t hi = lo ^ mask;
  if (hi < n) ladder_compare_exchange(keys, lo, hi);
}

// 2. A tile in shared memory: every step of stages up to the tile (merge_only
//    false), or the steps j = tile/2 .. 1 of a wider stage (merge_only true),
//    with one __syncthreads() per step instead of one launch.
__global__ void __launch_bounds__(bitonic_ladder_tile_threads)
    sort_bitonic_shared_tile(std::uint32_t* __restrict__ keys, std::uint64_t n, bool merge_only) {
  __shared__ std::uint32_t tile[bitonic_ladder_tile];
  const std::uint64_t begin = std::uint64_t(blockIdx.x) * bitonic_ladder_tile;
  const unsigned valid =
      n - begin < bitonic_ladder_tile ? unsigned(n - begin) : bitonic_ladder_tile;
  for (unsigned i = threadIdx.x; i < valid; i += blockDim.x)
    tile[i] = keys[begin + i];
  __syncthreads();
  // Thread t owns pair t of every step: (lo, lo ^ mask), lo = t with a zero
  // bit at `top`.
  const auto step = [&](unsigned mask, unsigned top) {
    const unsigned lo = ladder_pair_low(threadIdx.x, top);
    const unsigned hi = lo ^ mask;
    if (hi < valid && tile[hi] < tile[lo]) {
      const std::uint32_t a = tile[lo];
      tile[lo] = tile[hi];
      tile[hi] = a;
    }
    __syncthreads();
  };
  if (merge_only) {
    for (unsigned j = bitonic_ladder_tile / 2; j >= 1; j /= 2)
      step(j, j);
  } else {
    for (unsigned k = 2; k <= bitonic_ladder_tile; k *= 2) {
      step(k - 1, k / 2);  // the mirror-image step that opens each stage
      for (unsigned j = k / 4; j >= 1; j /= 2)
        step(j, j);
    }
  }
  for (unsigned i = threadIdx.x; i < valid; i += blockDim.x)
    keys[begin + i] = tile[i];
}

// 3. One-bit split, step 1: flags[i] = 1 where bit `bit` of keys[i] is 0.
__global__ void __launch_bounds__(sort_ladder_threads)
    sort_radix_split_flags(const std::uint32_t* __restrict__ keys,
                           std::uint32_t* __restrict__ flags, std::uint64_t n, unsigned bit) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = ((keys[i] >> bit) & 1u) == 0 ? 1u : 0u;
}

// One-bit split, step 3 (after the exclusive scan of the flags): keys with
// bit 0 go to their scanned position, keys with bit 1 after every zero, in
// input order, so the split is stable.
__global__ void __launch_bounds__(sort_ladder_threads)
    sort_radix_split_scatter(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                             const std::uint32_t* __restrict__ flags,
                             const std::uint32_t* __restrict__ positions, std::uint64_t n) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t zeros = std::uint64_t(positions[n - 1]) + flags[n - 1];
  const std::uint64_t to = flags[i] ? positions[i] : zeros + i - positions[i];
  out[to] = in[i];
}

}  // namespace gpuprim::ladder
