// Warp-wide reductions with shuffles. Both keep input order (lane 0's value
// first), so they are correct for associative, non-commutative operators,
// and every lane receives the result (a butterfly, not a tree: no broadcast
// needed afterwards).
#pragma once

#include "gpuprim/cuda/detail/partial.cuh"
#include "gpuprim/cuda/detail/shuffle.cuh"

namespace gpuprim::cuda_detail {

// All 32 lanes hold a value.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T value, Op op) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int mask = 1; mask < 32; mask <<= 1) {
    const T other = shuffle_xor(value, mask);
    // The partner with the set bit holds the later elements.
    value = (lane & mask) ? op(other, value) : op(value, other);
  }
  return value;
}

// Some lanes may hold no value.
template <class T, class Op>
__device__ __forceinline__ partial<T> warp_reduce(partial<T> value, Op op) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int mask = 1; mask < 32; mask <<= 1) {
    partial<T> other;
    other.value = shuffle_xor(value.value, mask);
    other.valid = __shfl_xor_sync(full_warp_mask, value.valid, mask);
    value = (lane & mask) ? combine(other, value, op) : combine(value, other, op);
  }
  return value;
}

}  // namespace gpuprim::cuda_detail
