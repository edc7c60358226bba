// Block-wide exclusive scan of one partial value per thread: a warp scan,
// the warp totals through shared memory, and each warp adding the totals of
// the warps before it. Every thread gets its exclusive prefix (the
// combination of all lower threads' values) and the block's total.
#pragma once

#include "gpuprim/cuda/block/block_reduce.cuh"
#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/shuffle_up.cuh"
#include "gpuprim/cuda/warp/warp_scan.cuh"

namespace gpuprim::cuda_impl {

template <int Threads, class T>
struct block_scan {
  // The warps' totals meet where block_reduce's do.
  using storage = typename block_reduce<Threads, T>::storage;
  static constexpr int warps = block_reduce<Threads, T>::warps;
  storage& shared;

  struct result {
    partial<T> exclusive_prefix;  // of this thread, within the block
    partial<T> block_total;
  };

  // All threads of the block must call this together (it has a barrier).
  template <class Op>
  __device__ result exclusive_scan(const partial<T>& value, Op op) {
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const partial<T> inclusive = warp_inclusive_scan(value, op);
    partial<T> exclusive = shuffle_up(inclusive, 1);
    if (lane == 0) exclusive.valid = false;
    if (lane == 31) shared.warp_totals[warp] = inclusive;
    __syncthreads();
    partial<T> warp_prefix{T{}, false};
    partial<T> total{T{}, false};
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      if (w == warp) warp_prefix = total;
      total = combine(total, shared.warp_totals[w], op);
    }
    return {combine(warp_prefix, exclusive, op), total};
  }
};

}  // namespace gpuprim::cuda_impl
