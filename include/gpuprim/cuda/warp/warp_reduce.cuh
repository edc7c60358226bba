// Warp-wide reductions with shuffles. Both keep input order (lane 0's value
// first), so they are correct for associative, non-commutative operators,
// and every lane receives the result (a butterfly, not a tree: no broadcast
// needed afterwards).
#pragma once

#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/shuffle.cuh"

namespace gpuprim::cuda_impl {

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

// Lanes [0, count) hold values and the others none: lane 0 receives the
// fold of the values in lane order (a tree, not a butterfly; other lanes
// end with partial folds, and with count 0 lane 0 holds nothing). Whether
// a partner holds anything follows from count, so no validity flag
// travels with the values.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_prefix(T value, unsigned count, Op op) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const T other = shuffle_xor(value, offset);
    if (lane % (2 * offset) == 0 && lane + offset < count) value = op(value, other);
  }
  return value;
}

}  // namespace gpuprim::cuda_impl
