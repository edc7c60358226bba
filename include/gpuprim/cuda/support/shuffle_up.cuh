// Shuffle-up and indexed shuffle for any trivially copyable type (word-wise,
// through shuffle_by_words in shuffle.cuh).
#pragma once

#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/shuffle.cuh"

namespace gpuprim::cuda_impl {

template <class T>
__device__ __forceinline__ T shuffle_up(const T& value, unsigned delta) {
  return shuffle_by_words(value,
                          [delta](auto x) { return __shfl_up_sync(full_warp_mask, x, delta); });
}

template <class T>
__device__ __forceinline__ T shuffle_from(const T& value, int source_lane) {
  return shuffle_by_words(
      value, [source_lane](auto x) { return __shfl_sync(full_warp_mask, x, source_lane); });
}

template <class T>
__device__ __forceinline__ partial<T> shuffle_up(const partial<T>& p, unsigned delta) {
  return {shuffle_up(p.value, delta),
          static_cast<bool>(__shfl_up_sync(full_warp_mask, p.valid, delta))};
}

template <class T>
__device__ __forceinline__ partial<T> shuffle_from(const partial<T>& p, int source_lane) {
  return {shuffle_from(p.value, source_lane),
          static_cast<bool>(__shfl_sync(full_warp_mask, p.valid, source_lane))};
}

}  // namespace gpuprim::cuda_impl
