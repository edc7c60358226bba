// Warp shuffles for any trivially copyable type: the value is moved as
// 32-bit words, so structs (value + index pairs, user types) shuffle too.
#pragma once

#include <cstring>
#include <type_traits>

namespace gpuprim::cuda_detail {

inline constexpr unsigned full_warp_mask = 0xffffffffu;

template <class T>
__device__ __forceinline__ T shuffle_xor(const T& value, int lane_mask) {
  static_assert(std::is_trivially_copyable_v<T>);
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    if constexpr (std::is_arithmetic_v<T>) return __shfl_xor_sync(full_warp_mask, value, lane_mask);
  }
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned buffer[words];
  memcpy(buffer, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < words; ++w)
    buffer[w] = __shfl_xor_sync(full_warp_mask, buffer[w], lane_mask);
  T result;
  memcpy(&result, buffer, sizeof(T));
  return result;
}

}  // namespace gpuprim::cuda_detail
