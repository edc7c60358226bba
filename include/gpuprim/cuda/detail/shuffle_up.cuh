// Shuffle-up and indexed shuffle for any trivially copyable type (word-wise,
// like shuffle_xor in shuffle.cuh).
#pragma once

#include <cstring>
#include <type_traits>

#include "gpuprim/cuda/detail/partial.cuh"
#include "gpuprim/cuda/detail/shuffle.cuh"

namespace gpuprim::cuda_detail {

template <class T>
__device__ __forceinline__ T shuffle_up(const T& value, unsigned delta) {
  static_assert(std::is_trivially_copyable_v<T>);
  if constexpr (std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    return __shfl_up_sync(full_warp_mask, value, delta);
  } else {
    constexpr int words = (sizeof(T) + 3) / 4;
    unsigned buffer[words];
    memcpy(buffer, &value, sizeof(T));
#pragma unroll
    for (int w = 0; w < words; ++w)
      buffer[w] = __shfl_up_sync(full_warp_mask, buffer[w], delta);
    T result;
    memcpy(&result, buffer, sizeof(T));
    return result;
  }
}

template <class T>
__device__ __forceinline__ T shuffle_from(const T& value, int source_lane) {
  static_assert(std::is_trivially_copyable_v<T>);
  if constexpr (std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    return __shfl_sync(full_warp_mask, value, source_lane);
  } else {
    constexpr int words = (sizeof(T) + 3) / 4;
    unsigned buffer[words];
    memcpy(buffer, &value, sizeof(T));
#pragma unroll
    for (int w = 0; w < words; ++w)
      buffer[w] = __shfl_sync(full_warp_mask, buffer[w], source_lane);
    T result;
    memcpy(&result, buffer, sizeof(T));
    return result;
  }
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

}  // namespace gpuprim::cuda_detail
