// Warp-wide inclusive scan of partial values with shuffles (Kogge-Stone:
// log2(32) steps, each lane adding the value `delta` lanes below). Lane
// order is input order, and the lower lane is always the left operand, so
// the operator only has to be associative.
#pragma once

#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/shuffle_up.cuh"

namespace gpuprim::cuda_impl {

template <class T, class Op>
__device__ __forceinline__ partial<T> warp_inclusive_scan(partial<T> value, Op op) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned delta = 1; delta < 32; delta *= 2) {
    const partial<T> lower = shuffle_up(value, delta);
    if (lane >= delta) value = combine(lower, value, op);
  }
  return value;
}

}  // namespace gpuprim::cuda_impl
