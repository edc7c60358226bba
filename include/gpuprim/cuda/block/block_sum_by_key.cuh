// Inclusive sums by key over a warp's lanes or a block's threads, for keys
// that do not decrease from lane to lane (thread to thread), so that equal
// keys are one run: each gets its value plus the values of those below it
// that hold the same key. SpMV's merge-path tiles (cuda/device/spmv/) add
// the partial sums of a row split between threads this way.
#pragma once

#include "gpuprim/cuda/support/shuffle.cuh"

namespace gpuprim::cuda_impl {

// Over the warp: log2(32) shuffle steps (Kogge-Stone), each lane adding the
// value `delta` lanes below where that lane holds the same key.
template <class Key, class T>
__device__ __forceinline__ T warp_inclusive_sum_by_key(Key key, T value) {
#pragma unroll
  for (unsigned delta = 1; delta < 32; delta *= 2) {
    const Key lower_key = __shfl_up_sync(full_warp_mask, key, delta);
    const T lower = __shfl_up_sync(full_warp_mask, value, delta);
    if (threadIdx.x % 32 >= delta && lower_key == key) value = lower + value;
  }
  return value;
}

// Over the block: the warp's sums, then the sums of the warps below whose
// last lane holds the same key, through warp_keys and warp_values (a slot
// a warp, holding each warp's last lane's key and sum afterwards). Has one
// barrier; the slots may be written again only after another.
template <class Key, class T>
__device__ __forceinline__ T block_inclusive_sum_by_key(Key key, T value, Key* warp_keys,
                                                        T* warp_values) {
  value = warp_inclusive_sum_by_key(key, value);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 31) {
    warp_keys[warp] = key;
    warp_values[warp] = value;
  }
  __syncthreads();
  for (int w = warp - 1; w >= 0 && warp_keys[w] == key; --w)
    value = warp_values[w] + value;
  return value;
}

}  // namespace gpuprim::cuda_impl
