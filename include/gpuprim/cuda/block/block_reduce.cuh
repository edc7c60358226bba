// Block-wide reduction: each warp reduces with shuffles, warp results meet in
// shared memory, and the first warp reduces those. The caller places
// `storage` in shared memory (so a kernel can reuse it between phases).
#pragma once

#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/warp/warp_reduce.cuh"

namespace gpuprim::cuda_impl {

template <int Threads, class T>
struct block_reduce {
  static_assert(Threads % 32 == 0 && Threads <= 1024, "whole warps, at most 1024 threads");
  static constexpr int warps = Threads / 32;

  // One partial a warp (block_scan's storage too).
  struct storage {
    partial<T> warp_totals[warps];
  };

  storage& shared;

  // Reduces the partials of all threads in thread order. The result is
  // returned in thread 0 only (saves a second barrier and a broadcast).
  // Threads must reach this together, as with __syncthreads().
  template <class Op>
  __device__ partial<T> reduce(partial<T> value, Op op) {
    return reduce_warp_totals(warp_reduce(value, op), op);
  }

  // As reduce(), for values that are already warp totals (the same in every
  // lane of a warp): only the warps' totals are combined.
  template <class Op>
  __device__ partial<T> reduce_warp_totals(const partial<T>& warp_total, Op op) {
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (lane == 0) shared.warp_totals[warp] = warp_total;
    __syncthreads();
    partial<T> result{};
    if (warp == 0) {
      partial<T> mine = lane < warps ? shared.warp_totals[lane] : partial<T>{T{}, false};
      result = warp_reduce(mine, op);
    }
    return result;
  }
};

}  // namespace gpuprim::cuda_impl
