// The scan ladder: inclusive prefix sums, oldest kernel first.
//
// Rungs 1-3 are the textbook block scans. Each block scans one tile of the
// input into `out` and, when `tile_totals` is not null, writes the tile's
// sum to tile_totals[blockIdx.x]; the host then scans the tile totals with
// the reduce-then-scan hierarchy of rung 4 and adds them back
// (add_tile_prefixes), so every rung handles any n (lab/ladder/scan_ladder.cu).
// Rung 4's kernels are that hierarchy: reduce each tile, scan the tile sums
// (recursively), then rescan each tile from its prefix. The last rung,
// scan_decoupled_lookback, is the production path in
// cuda/device/device_scan.cuh.
//
// Rungs 1-3 keep their loop bounds at run time (blockDim.x), as the lecture
// kernels do; shared arrays are sized for scan_ladder_threads, the block
// size the launcher uses. Elements past n in the last tile are read as 0,
// which is harmless for sums (the only operator of this ladder).
#pragma once

#include <cstdint>

#include "lab/ladder/reduce.cuh"

namespace gpuprim::ladder {

inline constexpr unsigned scan_ladder_threads = 256;
// Rung 4: rows of scan_ladder_threads elements each block scans per tile.
inline constexpr unsigned scan_hierarchy_rows = 16;

// ---- building blocks ----------------------------------------------------

template <class T>
__device__ __forceinline__ T load_or_zero(const T* in, std::uint64_t i, std::uint64_t n) {
  return i < n ? in[i] : T{};
}

// Lane k receives the sum of lanes 0..k, register to register.
template <class T>
__device__ __forceinline__ T warp_inclusive_sum(T x) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const T below = __shfl_up_sync(0xffffffffu, x, offset);
    if (lane >= offset) x += below;
  }
  return x;
}

// Adds the inclusive scan of the tile totals back to every tile but the
// first: block b serves tile b + 1, whose elements all lack the sum of the
// tiles before it.
template <class T>
__global__ void __launch_bounds__(scan_ladder_threads)
    add_tile_prefixes(T* __restrict__ out, std::uint64_t n,
                      const T* __restrict__ inclusive_tile_totals, std::uint64_t tile_elements) {
  const std::uint64_t tile = std::uint64_t(blockIdx.x) + 1;
  const T prefix = inclusive_tile_totals[tile - 1];
  const std::uint64_t begin = tile * tile_elements;
  const std::uint64_t end = begin + tile_elements < n ? begin + tile_elements : n;
  for (std::uint64_t i = begin + threadIdx.x; i < end; i += blockDim.x)
    out[i] += prefix;
}

// ---- the rungs ----------------------------------------------------------

// 1. Baseline Hillis-Steele: two shared buffers (race-free); O(n log n) adds, 4 n traffic.
template <class T>
__global__ void __launch_bounds__(scan_ladder_threads)
    scan_hillis_steele(const T* __restrict__ in, T* __restrict__ out, std::uint64_t n,
                       T* __restrict__ tile_totals) {
  __shared__ T buffers[2][scan_ladder_threads];
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + tid;
  unsigned current = 0;
  buffers[current][tid] = load_or_zero(in, i, n);
  __syncthreads();
  // Every step reads one buffer and writes the other, so a thread never
  // overwrites a value a slower thread still has to read in this step.
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    const T* source = buffers[current];
    T* target = buffers[1 - current];
    target[tid] = tid >= offset ? source[tid] + source[tid - offset] : source[tid];
    current = 1 - current;
    __syncthreads();
  }
  if (i < n) out[i] = buffers[current][tid];
  if (tile_totals && tid == blockDim.x - 1) tile_totals[blockIdx.x] = buffers[current][tid];
}

// 2. Blelloch up-/down-sweep: O(n) adds; power-of-two strides cause shared bank conflicts.
template <class T>
__global__ void __launch_bounds__(scan_ladder_threads)
    scan_blelloch(const T* __restrict__ in, T* __restrict__ out, std::uint64_t n,
                  T* __restrict__ tile_totals) {
  __shared__ T tree[2 * scan_ladder_threads];
  const unsigned tid = threadIdx.x;
  const unsigned tile = 2 * blockDim.x;
  const std::uint64_t base = std::uint64_t(blockIdx.x) * tile;
  // Coalesced: the two halves of the tile, one element of each per thread.
  const T low = load_or_zero(in, base + tid, n);
  const T high = load_or_zero(in, base + tid + blockDim.x, n);
  tree[tid] = low;
  tree[tid + blockDim.x] = high;

  // Up-sweep: after the step of `stride`, tree[k * 2 * stride - 1] holds the
  // sum of its 2 * stride elements.
  unsigned stride = 1;
  for (unsigned active = blockDim.x; active > 0; active /= 2, stride *= 2) {
    __syncthreads();
    if (tid < active) tree[stride * (2 * tid + 2) - 1] += tree[stride * (2 * tid + 1) - 1];
  }
  __syncthreads();
  const T total = tree[tile - 1];
  __syncthreads();  // everyone has read the total before thread 0 clears it
  if (tid == 0) tree[tile - 1] = T{};

  // Down-sweep: each node passes its prefix to its left child and prefix +
  // left child's sum to its right child; the leaves end up with the
  // exclusive scan.
  for (unsigned active = 1; active < tile; active *= 2) {
    stride /= 2;
    __syncthreads();
    if (tid < active) {
      const unsigned left = stride * (2 * tid + 1) - 1;
      const unsigned right = stride * (2 * tid + 2) - 1;
      const T left_sum = tree[left];
      tree[left] = tree[right];
      tree[right] += left_sum;
    }
  }
  __syncthreads();
  // Exclusive + own element = inclusive.
  if (base + tid < n) out[base + tid] = tree[tid] + low;
  if (base + tid + blockDim.x < n) out[base + tid + blockDim.x] = tree[tid + blockDim.x] + high;
  if (tile_totals && tid == 0) tile_totals[blockIdx.x] = total;
}

// Shared index of tree element e with one pad slot after every 32: the
// power-of-two strides of the sweeps then land on different banks.
__device__ __forceinline__ unsigned conflict_free(unsigned e) {
  return e + e / 32;
}

// 3. Padded index e + e/32 removes the bank conflicts; still one barrier per tree level.
template <class T>
__global__ void __launch_bounds__(scan_ladder_threads)
    scan_blelloch_conflict_free(const T* __restrict__ in, T* __restrict__ out, std::uint64_t n,
                                T* __restrict__ tile_totals) {
  __shared__ T tree[2 * scan_ladder_threads + 2 * scan_ladder_threads / 32];
  const unsigned tid = threadIdx.x;
  const unsigned tile = 2 * blockDim.x;
  const std::uint64_t base = std::uint64_t(blockIdx.x) * tile;
  const T low = load_or_zero(in, base + tid, n);
  const T high = load_or_zero(in, base + tid + blockDim.x, n);
  tree[conflict_free(tid)] = low;
  tree[conflict_free(tid + blockDim.x)] = high;

  unsigned stride = 1;
  for (unsigned active = blockDim.x; active > 0; active /= 2, stride *= 2) {
    __syncthreads();
    if (tid < active) {
      tree[conflict_free(stride * (2 * tid + 2) - 1)] +=
          tree[conflict_free(stride * (2 * tid + 1) - 1)];
    }
  }
  __syncthreads();
  const T total = tree[conflict_free(tile - 1)];
  __syncthreads();
  if (tid == 0) tree[conflict_free(tile - 1)] = T{};

  for (unsigned active = 1; active < tile; active *= 2) {
    stride /= 2;
    __syncthreads();
    if (tid < active) {
      const unsigned left = conflict_free(stride * (2 * tid + 1) - 1);
      const unsigned right = conflict_free(stride * (2 * tid + 2) - 1);
      const T left_sum = tree[left];
      tree[left] = tree[right];
      tree[right] += left_sum;
    }
  }
  __syncthreads();
  if (base + tid < n) out[base + tid] = tree[conflict_free(tid)] + low;
  if (base + tid + blockDim.x < n) {
    out[base + tid + blockDim.x] = tree[conflict_free(tid + blockDim.x)] + high;
  }
  if (tile_totals && tid == 0) tile_totals[blockIdx.x] = total;
}

// Rung 4, first kernel: block b writes the sum of its tile (Threads * Rows
// elements, read row by row, coalesced) to tile_sums[b].
template <unsigned Threads, unsigned Rows, class T>
__global__ void __launch_bounds__(Threads)
    scan_hierarchy_reduce_tiles(const T* __restrict__ in, T* __restrict__ tile_sums,
                                std::uint64_t n) {
  const std::uint64_t base = std::uint64_t(blockIdx.x) * Threads * Rows;
  T sum{};
#pragma unroll
  for (unsigned row = 0; row < Rows; ++row)
    sum += load_or_zero(in, base + row * Threads + threadIdx.x, n);
  sum = block_sum_shuffle<Threads>(sum);
  if (threadIdx.x == 0) tile_sums[blockIdx.x] = sum;
}

// 4. Reduce-then-scan with warp shuffles: 2 barriers per tile, 3 n traffic (input read twice).
//
// Block b rescans its tile, starting from inclusive_tile_sums[b - 1] (none
// for b = 0, or when the pointer is null: a single tile). The tile is Rows
// rows of Threads elements; the row-major order of (row, warp) is element
// order, so the exclusive scan of the Rows x warps warp totals gives each
// warp's prefix within the tile with only two barriers.
// `in` and `out` may be the same array (the host scans tile sums in place):
// each element is read and written by the same thread, read first.
template <unsigned Threads, unsigned Rows, class T>
__global__ void __launch_bounds__(Threads)
    scan_hierarchy_scan_tiles(const T* in, T* out, std::uint64_t n,
                              const T* __restrict__ inclusive_tile_sums) {
  constexpr unsigned warps = Threads / 32;
  constexpr unsigned totals = Rows * warps;
  static_assert(Threads % 32 == 0 && totals % 32 == 0, "whole warps; totals a multiple of 32");
  constexpr unsigned totals_per_lane = totals / 32;
  __shared__ T warp_totals[totals];  // then their exclusive scan, in place

  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  const std::uint64_t base = std::uint64_t(blockIdx.x) * Threads * Rows;
  T items[Rows];
#pragma unroll
  for (unsigned row = 0; row < Rows; ++row)
    items[row] = load_or_zero(in, base + row * Threads + threadIdx.x, n);
#pragma unroll
  for (unsigned row = 0; row < Rows; ++row) {
    items[row] = warp_inclusive_sum(items[row]);
    if (lane == 31) warp_totals[row * warps + warp] = items[row];
  }
  __syncthreads();

  // Warp 0 scans the totals: each lane owns totals_per_lane consecutive ones.
  if (warp == 0) {
    T own[totals_per_lane];
    T lane_sum{};
#pragma unroll
    for (unsigned k = 0; k < totals_per_lane; ++k) {
      own[k] = warp_totals[lane * totals_per_lane + k];
      lane_sum += own[k];
    }
    // Exclusive over lanes: the inclusive sum of the lane below.
    const T below = __shfl_up_sync(0xffffffffu, warp_inclusive_sum(lane_sum), 1);
    T running = lane == 0 ? T{} : below;
#pragma unroll
    for (unsigned k = 0; k < totals_per_lane; ++k) {
      warp_totals[lane * totals_per_lane + k] = running;
      running += own[k];
    }
  }
  __syncthreads();

  const T tile_prefix =
      (inclusive_tile_sums && blockIdx.x > 0) ? inclusive_tile_sums[blockIdx.x - 1] : T{};
#pragma unroll
  for (unsigned row = 0; row < Rows; ++row) {
    const std::uint64_t i = base + row * Threads + threadIdx.x;
    if (i < n) out[i] = tile_prefix + warp_totals[row * warps + warp] + items[row];
  }
}

// 5. scan_decoupled_lookback (cuda/device/device_scan.cuh): one pass, 2 n traffic (look-back).

}  // namespace gpuprim::ladder
