// The keys of the GPU top-k kernels (topk_select.cuh, topk_rows_block.cuh):
// which element types they take and each element's order pattern.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/sort_types.hpp"

namespace gpuprim::cuda_impl {

template <class T>
inline constexpr bool topk_select_key = is_radix_key_v<T>;

// Digits of 8 bits: the counters of one digit pass.
inline constexpr int topk_select_digits = 256;

// The order pattern top-k selects the largest of: NaN largest (every NaN
// alike), -0.0 equal to +0.0, inverted for the smallest.
template <class T>
GPUPRIM_HD std::uint64_t topk_pattern(T x, bool largest) {
  if constexpr (std::is_floating_point_v<T>) {
    if (x == T(0)) x = T(0);
  }
  using U = typename radix_key<T>::bits_type;
  const U b = radix_key<T>::to_bits(x);
  return largest ? std::uint64_t{b} : std::uint64_t{U(~b)};
}

}  // namespace gpuprim::cuda_impl
