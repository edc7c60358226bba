#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "inputs.hpp"

namespace gpuprim::bench {

// Key distributions of the sort bench's "sort distributions" table and of
// lab/probes/probe_radix_designs.cu: 32-bit patterns (uint32 keys, or the
// bits of float keys for the three float distributions; uint64 keys below
// 2^32 are the uniform patterns widened). Key i depends on i and the seed
// alone (splitmix64).
enum class key_distribution {
  uniform,         // every bit random
  sorted,          // ascending, distinct
  reversed,        // descending, distinct
  all_equal,       // one value
  sixteen_values,  // 16 distinct random values
  below_2_16,      // small integers: [0, 2^16)
  below_2_20,      // ids: [0, 2^20)
  zipf,            // Zipf-like (s = 1 over 2^24 ranks), ranks hashed to keys
  low_entropy,     // the AND of three uniform words (each bit 1 with p = 1/8)
  one_top_byte,    // the top byte 0x5A in every key, the rest random
  special_floats,  // float: NaNs (both signs, payloads), +-inf, +-0.0, uniform
  denormals,       // float: half denormal (both signs), half uniform in (-1, 1)
  narrow_floats,   // float: uniform in [100, 100.5) (the top 16 bits are the same)
};

// Uniform in (-1000, 1000), from 53 random bits of b.
inline float uniform_float(std::uint64_t b) {
  return static_cast<float>((static_cast<double>(b >> 11) * 0x1.0p-53 * 2.0 - 1.0) * 1000.0);
}

inline std::uint32_t distribution_bits(key_distribution d, std::size_t i, std::size_t n,
                                       std::uint64_t seed) {
  const std::uint64_t b = mix_bits(seed ^ mix_bits(i));
  const std::uint32_t step =
      static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (std::uint64_t{1} << 32) / n));
  switch (d) {
    case key_distribution::uniform:
      return static_cast<std::uint32_t>(b);
    case key_distribution::sorted:
      return static_cast<std::uint32_t>(i) * step;
    case key_distribution::reversed:
      return ~(static_cast<std::uint32_t>(i) * step);
    case key_distribution::all_equal:
      return 0x9e3779b9u;
    case key_distribution::sixteen_values:
      return static_cast<std::uint32_t>(mix_bits(b & 15));
    case key_distribution::below_2_16:
      return static_cast<std::uint32_t>(b & 0xffff);
    case key_distribution::below_2_20:
      return static_cast<std::uint32_t>(b & 0xfffff);
    case key_distribution::zipf: {
      // P(rank >= r) ~ 1 - ln(r) / ln(2^24): the continuous s = 1 law.
      const double u = static_cast<double>(b >> 11) * 0x1.0p-53;
      const auto rank = static_cast<std::uint64_t>(std::exp(u * 24.0 * std::log(2.0)));
      return static_cast<std::uint32_t>(mix_bits(rank));
    }
    case key_distribution::low_entropy:
      return static_cast<std::uint32_t>(b) & static_cast<std::uint32_t>(b >> 32) &
             static_cast<std::uint32_t>(mix_bits(b));
    case key_distribution::one_top_byte:
      return (static_cast<std::uint32_t>(b) & 0x00ffffffu) | 0x5a000000u;
    case key_distribution::special_floats: {
      const std::uint32_t sign = static_cast<std::uint32_t>(b >> 63) << 31;
      switch (b % 8) {
        case 0:
          return sign | 0x7f800000u | 1u | (static_cast<std::uint32_t>(b >> 20) & 0x7fffffu);
        case 1:
          return sign | 0x7f800000u;
        case 2:
          return sign;
        default:
          return std::bit_cast<std::uint32_t>(uniform_float(b));
      }
    }
    case key_distribution::denormals: {
      if (b & 1) return std::bit_cast<std::uint32_t>(uniform_float(b) / 1000.0f);
      return (static_cast<std::uint32_t>(b >> 63) << 31) |
             ((static_cast<std::uint32_t>(b >> 8) & 0x7fffffu) | 1u);
    }
    case key_distribution::narrow_floats:
      // 100 is 0x42c80000; the 2^16 floats above it reach 100.5.
      return 0x42c80000u + static_cast<std::uint32_t>(b & 0xffff);
  }
  return 0;
}

}  // namespace gpuprim::bench
