// The reduction ladder: the classic sequence of sum kernels, oldest first.
// Every kernel has the same contract: block b writes the sum of its share of
// in[0, n) to block_sums[b]; the host repeats passes over the block sums
// until one block is left (lab/ladder/reduce_ladder.cu). The last rung,
// reduce_single_pass, is the production path in cuda/device/device_reduce.cuh.
//
// Rungs 1-5 keep their loop bounds at run time (blockDim.x), as the lecture
// kernels do, so that rung 6 shows what a compile-time block size buys.
// Shared arrays are sized for reduce_ladder_threads, the block size the
// launcher uses.
#pragma once

#include <cstdint>

#include "gpuprim/cuda/support/vector.cuh"

namespace gpuprim::ladder {

inline constexpr unsigned reduce_ladder_threads = 256;

// ---- building blocks shared by later rungs --------------------------------

// Lanes 0-31 fold partials[0, 64) into lane 0's return value. Pre-Volta
// code let the warp run these steps in lockstep on `volatile` memory; since
// Volta, warps are not implicitly synchronous, so each step reads, waits for
// the whole warp (__syncwarp), then writes: clean under racecheck/synccheck.
template <class T>
__device__ __forceinline__ T sum_last_warp(T* partials, unsigned tid) {
  T sum = partials[tid];
#pragma unroll
  for (unsigned offset = 32; offset > 0; offset /= 2) {
    sum += partials[tid + offset];
    __syncwarp();
    partials[tid] = sum;
    __syncwarp();
  }
  return sum;
}

// Thread 0 receives the block's sum of `sum`, folded by a tree in shared
// memory. Threads is a compile-time constant, so the loop unrolls and the
// tid tests of steps the block cannot reach disappear.
template <unsigned Threads, class T>
__device__ __forceinline__ T block_sum_unrolled(T sum) {
  static_assert(Threads >= 64 && Threads <= 1024 && (Threads & (Threads - 1)) == 0,
                "a power of two from 64 to 1024 threads");
  __shared__ T partials[Threads];
  const unsigned tid = threadIdx.x;
  partials[tid] = sum;
  __syncthreads();
#pragma unroll
  for (unsigned stride = Threads / 2; stride > 32; stride /= 2) {
    if (tid < stride) partials[tid] += partials[tid + stride];
    __syncthreads();
  }
  return tid < 32 ? sum_last_warp(partials, tid) : T{};
}

// The thread's sum of in[0, n) over a grid-stride loop.
template <unsigned Threads, class T>
__device__ __forceinline__ T grid_stride_sum(const T* __restrict__ in, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * Threads;
  T sum{};
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * Threads + threadIdx.x; i < n; i += stride)
    sum += in[i];
  return sum;
}

// Lane 0 receives the sum of the warp's 32 values, passed register to
// register: no shared memory, no barrier.
template <class T>
__device__ __forceinline__ T warp_sum_shuffle(T sum) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  return sum;
}

// Thread 0 receives the block's sum: warps reduce with shuffles, and only
// one value per warp goes through shared memory (one barrier).
template <unsigned Threads, class T>
__device__ __forceinline__ T block_sum_shuffle(T sum) {
  static_assert(Threads % 32 == 0 && Threads <= 1024, "whole warps, at most 1024 threads");
  constexpr unsigned warps = Threads / 32;
  __shared__ T warp_sums[warps];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  sum = warp_sum_shuffle(sum);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp != 0) return T{};
  return warp_sum_shuffle(lane < warps ? warp_sums[lane] : T{});
}

// ---- the rungs ------------------------------------------------------------

// Rungs 1-5 are one kernel, reduce_shared_tree<Tree, Loads>: each thread
// loads Loads elements (blockDim.x apart) into partials[tid], then the
// block folds partials with the tree step Tree.
enum class shared_tree {
  // 1. Baseline tree in shared memory; `tid % (2*s)` leaves most lanes of each warp idle
  // (divergent).
  interleaved_divergent,
  // 2. Active threads are contiguous (no divergence), but index = 2*s*tid causes bank conflicts.
  interleaved_strided_index,
  // 3. Halving stride from blockDim/2 is conflict-free; half the threads idle from the first step.
  //    (4. With Loads = 2: each thread adds two elements while loading, half the blocks; the
  //    last warp still syncs.)
  sequential_addressing,
  // 5. Last 6 steps in one warp, __syncwarp instead of __syncthreads; the block loop is not
  //    unrolled.
  unrolled_last_warp,
};

// partials[0, blockDim.x) folded into thread 0's return value.
template <shared_tree Tree, class T>
__device__ __forceinline__ T fold_shared_tree(T* partials, unsigned tid) {
  if constexpr (Tree == shared_tree::interleaved_divergent) {
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
      if (tid % (2 * s) == 0) partials[tid] += partials[tid + s];
      __syncthreads();
    }
  } else if constexpr (Tree == shared_tree::interleaved_strided_index) {
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
      const unsigned index = 2 * s * tid;
      if (index < blockDim.x) partials[index] += partials[index + s];
      __syncthreads();
    }
  } else {
    constexpr unsigned last = Tree == shared_tree::unrolled_last_warp ? 32 : 0;
    for (unsigned s = blockDim.x / 2; s > last; s /= 2) {
      if (tid < s) partials[tid] += partials[tid + s];
      __syncthreads();
    }
    if constexpr (last == 32) return tid < 32 ? sum_last_warp(partials, tid) : T{};
  }
  return partials[0];
}

template <shared_tree Tree, unsigned Loads, class T>
__global__ void __launch_bounds__(reduce_ladder_threads)
    reduce_shared_tree(const T* __restrict__ in, T* __restrict__ block_sums, std::uint64_t n) {
  static_assert(Loads == 1 || Loads == 2, "one or two elements per thread");
  __shared__ T partials[reduce_ladder_threads];
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * (Loads * blockDim.x) + tid;
  T sum = i < n ? in[i] : T{};
  if (Loads == 2 && i + blockDim.x < n) sum += in[i + blockDim.x];
  partials[tid] = sum;
  __syncthreads();
  sum = fold_shared_tree<Tree>(partials, tid);
  if (tid == 0) block_sums[blockIdx.x] = sum;
}

// 6. Block size as a template parameter unrolls the whole tree; only 2 elements per thread.
template <unsigned Threads, class T>
__global__ void __launch_bounds__(Threads)
    reduce_complete_unroll(const T* __restrict__ in, T* __restrict__ block_sums, std::uint64_t n) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * (2 * Threads) + threadIdx.x;
  T sum = i < n ? in[i] : T{};
  if (i + Threads < n) sum += in[i + Threads];
  sum = block_sum_unrolled<Threads>(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

// 7. Fixed grid, grid-stride loop: many elements per thread (cost-optimal); tree still in shared.
template <unsigned Threads, class T>
__global__ void __launch_bounds__(Threads)
    reduce_multiple_elements_per_thread(const T* __restrict__ in, T* __restrict__ block_sums,
                                        std::uint64_t n) {
  const T sum = block_sum_unrolled<Threads>(grid_stride_sum<Threads>(in, n));
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

// 8. Warp shuffles replace the shared tree (one barrier); scalar loads keep few bytes in flight.
template <unsigned Threads, class T>
__global__ void __launch_bounds__(Threads)
    reduce_warp_shuffle(const T* __restrict__ in, T* __restrict__ block_sums, std::uint64_t n) {
  const T sum = block_sum_shuffle<Threads>(grid_stride_sum<Threads>(in, n));
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

// 9. 16-byte vector loads (scalar head and tail around the aligned body); still multi-pass.
template <unsigned Threads, class T>
__global__ void __launch_bounds__(Threads)
    reduce_vector_loads(const T* __restrict__ in, T* __restrict__ block_sums, std::uint64_t n) {
  constexpr int per_vector = cuda_impl::vector_items<T>;  // 4 for 4-byte T, 2 for 8-byte T
  using vector_t = cuda_impl::vector_of<T, per_vector>;
  // `in` is aligned to sizeof(T), so fewer than per_vector elements come
  // before the first vector boundary, and fewer than per_vector after the
  // last one.
  const std::uint64_t misaligned_bytes = reinterpret_cast<std::uintptr_t>(in) % sizeof(vector_t);
  const std::uint64_t head_to_boundary =
      (sizeof(vector_t) - misaligned_bytes) % sizeof(vector_t) / sizeof(T);
  const std::uint64_t head = head_to_boundary < n ? head_to_boundary : n;
  const std::uint64_t vectors = (n - head) / per_vector;
  const std::uint64_t tail_begin = head + vectors * per_vector;
  const vector_t* body = reinterpret_cast<const vector_t*>(in + head);

  const std::uint64_t thread = std::uint64_t(blockIdx.x) * Threads + threadIdx.x;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * Threads;
  T sum{};
  for (std::uint64_t v = thread; v < vectors; v += stride) {
    const vector_t x = body[v];
#pragma unroll
    for (int k = 0; k < per_vector; ++k)
      sum += x.items[k];
  }
  if (thread < head) sum += in[thread];
  if (thread < n - tail_begin) sum += in[tail_begin + thread];
  sum = block_sum_shuffle<Threads>(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

// 10. reduce_single_pass (cuda/device/device_reduce.cuh): one launch, no host-side passes,
// several vector loads in flight per thread; the last block to finish adds the block sums.

}  // namespace gpuprim::ladder
