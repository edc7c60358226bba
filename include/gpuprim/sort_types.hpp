// The sort family's public vocabulary (gpuprim/sort.hpp is the header to
// include): the order of a sort, the key bits it compares, and the order
// gpuprim sorts keys in.
//
// That order is an unsigned bit pattern per key: radix sorts sort these
// bits, and `sort_less` compares keys by them, so every sort in the library
// (radix, networks, host, GPU) agrees on one order.
//
//  - unsigned integers: their value.
//  - signed integers: the sign bit flipped, so negatives come first.
//  - float / double: IEEE total order with the sign handled: negatives
//    reversed, so -inf < ... < -0.0 < +0.0 < ... < +inf; every NaN (either
//    sign, any payload) maps to the largest pattern, so NaNs come last.
//  - descending order is the reverse of ascending for every non-NaN key,
//    and NaNs still come last (the way a "NaN last" column sort behaves).
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

enum class sort_order { ascending, descending };

// Bits [begin, end) of the key's order pattern; end = -1 means the top bit.
struct key_bits {
  int begin = 0;
  int end = -1;
};

template <class T>
inline constexpr bool is_radix_key_v = (std::is_integral_v<T> && !std::is_same_v<T, bool>) ||
                                       std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class T>
struct radix_key {
  static_assert(is_radix_key_v<T>,
                "gpuprim: radix keys are 8/16/32/64-bit integers, float or double");
  using bits_type = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  static constexpr int bits = 8 * sizeof(T);
  static constexpr bits_type sign_bit = bits_type(bits_type(1) << (bits - 1));
  static constexpr bits_type all_ones = bits_type(~bits_type(0));

  // The ascending-order bit pattern of `key`, inverted (except for NaN) when
  // `descending`, so that sorting the patterns ascending sorts the keys.
  GPUPRIM_HD static constexpr bits_type to_bits(T key, bool descending = false) {
    bits_type b = std::bit_cast<bits_type>(key);
    if constexpr (std::is_floating_point_v<T>) {
      if (key != key) return all_ones;  // NaN: last, in either direction
      // -0.0 and +0.0 differ in the sign bit only: -0.0 sorts first.
      b = (b & sign_bit) ? bits_type(~b) : bits_type(b | sign_bit);
      // Non-NaN patterns lie strictly between 0 and all_ones (the ends are
      // NaN patterns), so inverting them never collides with NaN's all_ones.
      return descending ? bits_type(~b) : b;
    } else if constexpr (std::is_signed_v<T>) {
      b = bits_type(b ^ sign_bit);
    }
    // Integers use every pattern; descending maps max -> 0 and min -> max.
    return descending ? bits_type(~b) : b;
  }
};

// Strict weak order matching gp::sort: `sort_less{}(a, b)` is true when a
// sorts before b (ascending; NaNs last and equal to each other).
struct sort_less {
  template <class T>
  GPUPRIM_HD constexpr bool operator()(const T& a, const T& b) const {
    if constexpr (is_radix_key_v<T>) {
      return radix_key<T>::to_bits(a) < radix_key<T>::to_bits(b);
    } else {
      return a < b;
    }
  }
};

// The descending counterpart (NaNs still last).
struct sort_greater {
  template <class T>
  GPUPRIM_HD constexpr bool operator()(const T& a, const T& b) const {
    if constexpr (is_radix_key_v<T>) {
      return radix_key<T>::to_bits(a, true) < radix_key<T>::to_bits(b, true);
    } else {
      return b < a;
    }
  }
};

}  // namespace gpuprim
