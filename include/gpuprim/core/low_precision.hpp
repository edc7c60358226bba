// 16-bit floating-point storage types for plain C++: gp::half (IEEE binary16)
// and gp::bfloat16 (the top half of a float). They only store and convert;
// arithmetic happens in float. Their layout is that of CUDA's __half and
// __nv_bfloat16 (two bytes of bits), so device buffers of them are handed to
// cuBLAS and to kernels as those types.
//
//   std::vector<gp::bfloat16> a(n);
//   a[i] = gp::bfloat16(0.1f);        // rounded to nearest even
//   float x = static_cast<float>(a[i]);
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

namespace detail {
// The two bytes both types store, and making one from them.
template <class Derived>
struct bits16 {
  std::uint16_t bits = 0;

  static constexpr Derived from_bits(std::uint16_t b) {
    Derived x;
    x.bits = b;
    return x;
  }
};
}  // namespace detail

struct bfloat16 : detail::bits16<bfloat16> {
  constexpr bfloat16() = default;
  // Rounds to nearest, ties to even; NaN stays a (quiet) NaN.
  explicit constexpr bfloat16(float f) : bits16{from_float(f)} {}
  explicit constexpr operator float() const {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
  }

 private:
  static constexpr std::uint16_t from_float(float f) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0) {
      return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
    }
    const std::uint32_t rounding = 0x7FFFu + ((u >> 16) & 1u);
    return static_cast<std::uint16_t>((u + rounding) >> 16);
  }
};

struct half : detail::bits16<half> {
  constexpr half() = default;
  // Rounds to nearest, ties to even; overflow gives infinity, NaN stays NaN.
  explicit constexpr half(float f) : bits16{from_float(f)} {}
  explicit constexpr operator float() const { return to_float(bits); }

 private:
  static constexpr std::uint16_t from_float(float f) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    const auto sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
    const std::uint32_t exponent = (u >> 23) & 0xFFu;
    std::uint32_t mantissa = u & 0x007FFFFFu;
    if (exponent == 0xFFu) {
      return static_cast<std::uint16_t>(sign | 0x7C00u | (mantissa ? 0x0200u : 0u));
    }
    const int e = static_cast<int>(exponent) - 127 + 15;
    if (e >= 0x1F) return static_cast<std::uint16_t>(sign | 0x7C00u);
    if (e <= 0) {
      // Subnormal half (or zero): shift the full significand into place.
      if (e < -10) return sign;
      mantissa |= 0x00800000u;
      const int shift = 14 - e;  // 24-bit significand -> 10 - (1 - e) bits
      const std::uint32_t half_bits = mantissa >> shift;
      const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
      const std::uint32_t halfway = 1u << (shift - 1);
      const bool up = rest > halfway || (rest == halfway && (half_bits & 1u));
      return static_cast<std::uint16_t>(sign | (half_bits + (up ? 1u : 0u)));
    }
    std::uint32_t h = (static_cast<std::uint32_t>(e) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // may carry into infinity
    return static_cast<std::uint16_t>(sign | h);
  }
  static constexpr float to_float(std::uint16_t b) {
    const std::uint32_t sign = static_cast<std::uint32_t>(b & 0x8000u) << 16;
    const std::uint32_t exponent = (b >> 10) & 0x1Fu;
    std::uint32_t mantissa = b & 0x03FFu;
    if (exponent == 0x1Fu) return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    if (exponent == 0) {
      if (mantissa == 0) return std::bit_cast<float>(sign);
      int e = -1;  // normalize the subnormal
      do {
        ++e;
        mantissa <<= 1;
      } while ((mantissa & 0x0400u) == 0);
      return std::bit_cast<float>(sign | static_cast<std::uint32_t>(127 - 15 - e) << 23 |
                                  (mantissa & 0x03FFu) << 13);
    }
    return std::bit_cast<float>(sign | (exponent + 127 - 15) << 23 | mantissa << 13);
  }
};

static_assert(sizeof(bfloat16) == 2 && sizeof(half) == 2);
static_assert(std::is_standard_layout_v<bfloat16> && std::is_standard_layout_v<half>);

}  // namespace gpuprim
