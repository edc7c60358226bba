// Warp shuffles for any trivially copyable type: the value is moved as
// 32-bit words, so structs (value + index pairs, user types) shuffle too.
#pragma once

#include <cstring>
#include <type_traits>

namespace gpuprim::cuda_impl {

inline constexpr unsigned full_warp_mask = 0xffffffffu;

// Moves `value` through a warp shuffle: `move(x)` shuffles one word (or a
// whole 4- or 8-byte arithmetic value, which the intrinsics take as is),
// with the same pattern for every word of the value.
template <class T, class Move>
__device__ __forceinline__ T shuffle_by_words(const T& value, Move move) {
  static_assert(std::is_trivially_copyable_v<T>);
  if constexpr (std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    return move(value);
  } else {
    constexpr int words = (sizeof(T) + 3) / 4;
    unsigned buffer[words];
    memcpy(buffer, &value, sizeof(T));
#pragma unroll
    for (int w = 0; w < words; ++w)
      buffer[w] = move(buffer[w]);
    T result;
    memcpy(&result, buffer, sizeof(T));
    return result;
  }
}

template <class T>
__device__ __forceinline__ T shuffle_xor(const T& value, int lane_mask) {
  return shuffle_by_words(
      value, [lane_mask](auto x) { return __shfl_xor_sync(full_warp_mask, x, lane_mask); });
}

}  // namespace gpuprim::cuda_impl
