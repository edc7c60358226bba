// Reductions within aligned groups of G lanes of a warp (G = 1, 2, 4, 8, 16
// or 32): lanes [0, G) form the first group, [G, 2G) the next, and so on.
// Each group reduces its own lanes' values with an ordered butterfly, the
// same shape as warp_reduce but stopping at lane distance G / 2, so groups
// never exchange values and every lane of a group receives its result.
// Input order is kept (the lowest lane's value first).
//
// All 32 lanes of the warp must call it together (the shuffles name the
// full warp), even lanes whose group has nothing to reduce: such lanes pass
// an invalid partial.
#pragma once

#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/shuffle.cuh"

namespace gpuprim::cuda_impl {

template <int G, class T, class Op>
__device__ __forceinline__ partial<T> warp_group_reduce(partial<T> value, Op op) {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "a group is a power-of-two run of lanes");
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int mask = 1; mask < G; mask <<= 1) {
    partial<T> other;
    other.value = shuffle_xor(value.value, mask);
    other.valid = __shfl_xor_sync(full_warp_mask, value.valid, mask);
    // The partner with the set bit holds the later elements.
    value = (lane & mask) ? combine(other, value, op) : combine(value, other, op);
  }
  return value;
}

}  // namespace gpuprim::cuda_impl
