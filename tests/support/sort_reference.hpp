// Sequential reference of the radix sort, and the key patterns the sort
// tests use. The reference sorts positions with std::stable_sort by each
// key's order pattern (radix_key<K>::to_bits) restricted to a bit range, so
// it gives both the expected keys and the expected value permutation
// (equal keys keep their input order).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/sort.hpp"
#include "gpuprim/sort_types.hpp"
#include "support/named.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

template <class K>
using key_bits_t = typename radix_key<K>::bits_type;

// The bits of `key` that a sort over bits [begin, end) compares (end < 0:
// all of them), shifted down to bit 0.
template <class K>
std::uint64_t sort_digit(K key, bool descending, int begin = 0, int end = -1) {
  constexpr int bits = radix_key<K>::bits;
  if (end < 0) end = bits;
  const int width = end - begin;
  if (width <= 0) return 0;
  const std::uint64_t pattern = radix_key<K>::to_bits(key, descending);
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  return (pattern >> begin) & mask;
}

// Positions of `keys` in sorted order: perm[i] is the input position of the
// i-th output element.
template <class K>
std::vector<std::uint32_t> reference_sort_permutation(std::span<const K> keys, bool descending,
                                                      int begin = 0, int end = -1) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> tagged(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    tagged[i] = {sort_digit(keys[i], descending, begin, end), static_cast<std::uint32_t>(i)};
  // Ties broken by position: the same result as std::stable_sort on the
  // digits alone, and faster on a million keys.
  std::sort(tagged.begin(), tagged.end());
  std::vector<std::uint32_t> perm(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    perm[i] = tagged[i].second;
  return perm;
}

template <class T>
std::vector<T> gather(std::span<const T> values, const std::vector<std::uint32_t>& perm) {
  std::vector<T> out(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    out[i] = values[perm[i]];
  return out;
}

template <class K>
std::vector<K> reference_sort(std::span<const K> keys, bool descending, int begin = 0,
                              int end = -1) {
  return gather(keys, reference_sort_permutation(keys, descending, begin, end));
}

// Byte-wise equality (keys by bit pattern: NaN payloads and -0.0 count).
template <class T>
bool same_bytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
std::string hex_of(const T& x) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &x, sizeof(T));
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  for (std::size_t i = sizeof(T); i-- > 0;) {
    s += digits[b[i] >> 4];
    s += digits[b[i] & 15];
  }
  return s;
}

// got == want element by element, comparing bytes; reports the first
// difference.
template <class T>
void expect_same_bytes(std::span<const T> got, std::span<const T> want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!same_bytes(got[i], want[i])) {
      FAIL() << what << ": element " << i << " of " << got.size() << " is " << hex_of(got[i])
             << ", expected " << hex_of(want[i]);
    }
  }
}
template <class T>
void expect_same_bytes(const std::vector<T>& got, const std::vector<T>& want,
                       const std::string& what) {
  expect_same_bytes(std::span<const T>(got), std::span<const T>(want), what);
}

// Sizes the sort tests use: standard_sizes' edges plus those around tiles
// of 4096 and 8192 keys.
inline std::vector<std::size_t> sort_sizes() {
  return test_sizes({0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 4095, 4096, 4097, 7919, 8191, 8192,
                     8193, (1u << 20) + 7});
}

// ---- key patterns ------------------------------------------------------------

enum class key_pattern { random_bits, sorted, reverse_sorted, all_equal, few_distinct };

inline const char* pattern_name(key_pattern p) {
  // In the order of the enum.
  constexpr const char* names[] = {"random bits", "sorted", "reverse sorted", "all equal",
                                   "few distinct"};
  return name_in(names, p);
}

inline const std::vector<key_pattern>& all_key_patterns() {
  static const std::vector<key_pattern> patterns = {
      key_pattern::random_bits, key_pattern::sorted, key_pattern::reverse_sorted,
      key_pattern::all_equal, key_pattern::few_distinct};
  return patterns;
}

// Keys with uniformly random bit patterns (for floats: every exponent,
// infinities, denormals, and NaNs of both signs with random payloads).
template <class K>
std::vector<K> random_bits_keys(std::size_t n, std::mt19937_64& rng) {
  using B = key_bits_t<K>;
  std::vector<K> keys(n);
  for (auto& k : keys)
    k = std::bit_cast<K>(static_cast<B>(rng()));
  return keys;
}

template <class K>
std::vector<K> pattern_keys(key_pattern pattern, std::size_t n, std::mt19937_64& rng) {
  switch (pattern) {
    case key_pattern::random_bits:
      return random_bits_keys<K>(n, rng);
    case key_pattern::sorted:
    case key_pattern::reverse_sorted: {
      const auto random = random_bits_keys<K>(n, rng);
      auto keys = reference_sort(std::span<const K>(random), false);
      if (pattern == key_pattern::reverse_sorted) std::reverse(keys.begin(), keys.end());
      return keys;
    }
    case key_pattern::all_equal:
      return std::vector<K>(n, std::bit_cast<K>(static_cast<key_bits_t<K>>(rng())));
    case key_pattern::few_distinct: {
      K three[3];
      for (auto& k : three)
        k = std::bit_cast<K>(static_cast<key_bits_t<K>>(rng()));
      std::vector<K> keys(n);
      for (auto& k : keys)
        k = three[rng() % 3];
      return keys;
    }
  }
  return {};
}

// Bit ranges [begin, end) worth sorting by for a key of `bits` bits: the
// ones named in the tests' brief where they fit, a few relative to the
// width, and the empty range (a sort that moves nothing).
inline std::vector<std::pair<int, int>> bit_ranges_for(int bits) {
  const std::vector<std::pair<int, int>> candidates = {
      {0, 12},      {4, 20},          {0, 0}, {8, 32}, {bits / 2, bits}, {3, bits - 2},
      {bits, bits}, {bits - 1, bits}, {0, 1}, {5, 13}, {0, bits}};
  std::vector<std::pair<int, int>> out;
  for (const auto& r : candidates)
    if (r.first <= r.second && r.second <= bits) out.push_back(r);
  return out;
}

// ---- float keys ---------------------------------------------------------------

// NaNs of both signs with several payloads (quiet and signalling), both
// zeros, both infinities, denormals, the extremes and a few ordinary values.
template <class F>
std::vector<F> special_float_keys() {
  using B = key_bits_t<F>;
  using L = std::numeric_limits<F>;
  constexpr B sign = radix_key<F>::sign_bit;
  constexpr int mantissa_bits = L::digits - 1;
  constexpr B exponent = B(B(~B(0) & ~sign) >> mantissa_bits << mantissa_bits);
  const auto nan_with = [&](B payload, bool negative) {
    return std::bit_cast<F>(B(exponent | payload | (negative ? sign : B(0))));
  };
  const B quiet = B(1) << (mantissa_bits - 1);
  const B all_mantissa = B((B(1) << mantissa_bits) - 1);
  return {L::quiet_NaN(),
          nan_with(quiet, true),
          nan_with(1, false),  // signalling, smallest payload
          nan_with(1, true),
          nan_with(quiet | 0x123, false),
          nan_with(all_mantissa, true),
          F(-0.0),
          F(0.0),
          L::infinity(),
          -L::infinity(),
          L::denorm_min(),
          -L::denorm_min(),
          std::bit_cast<F>(all_mantissa),  // largest denormal
          std::bit_cast<F>(B(all_mantissa | sign)),
          L::min(),
          -L::min(),
          L::max(),
          L::lowest(),
          F(1),
          F(-1),
          F(0.5),
          F(-2),
          F(3)};
}

// Checks a sort of float keys without the reference: `got[i]` is
// input[pos[i]] byte for byte, `pos` is a permutation, the numbers come
// first in order (ascending: -0.0 before +0.0; descending: +0.0 before
// -0.0), every NaN comes last, and equal keys (same bytes, or any two NaNs)
// keep their input order.
template <class F>
void expect_float_sort_order(std::span<const F> input, std::span<const F> got,
                             std::span<const std::uint32_t> pos, bool descending,
                             const std::string& what) {
  const std::size_t n = input.size();
  ASSERT_EQ(got.size(), n) << what;
  ASSERT_EQ(pos.size(), n) << what;
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_LT(pos[i], n) << what << " at " << i;
    ASSERT_FALSE(seen[pos[i]]) << what << ": position " << pos[i] << " twice";
    seen[pos[i]] = true;
    ASSERT_TRUE(same_bytes(got[i], input[pos[i]]))
        << what << " at " << i << ": key " << hex_of(got[i]) << " with the value of input "
        << pos[i] << " (" << hex_of(input[pos[i]]) << ")";
  }
  const auto nans = static_cast<std::size_t>(
      std::count_if(input.begin(), input.end(), [](F x) { return x != x; }));
  for (std::size_t i = 0; i < n; ++i) {
    const bool is_nan = got[i] != got[i];
    ASSERT_EQ(is_nan, i >= n - nans)
        << what << ": NaNs must come last; element " << i << " is " << hex_of(got[i]);
  }
  for (std::size_t i = 1; i < n; ++i) {
    const F a = got[i - 1], b = got[i];
    if (a != a) {  // both NaN: input order
      ASSERT_LT(pos[i - 1], pos[i]) << what << ": NaNs out of input order at " << i;
      continue;
    }
    if (b != b) continue;
    if (same_bytes(a, b)) {
      ASSERT_LT(pos[i - 1], pos[i]) << what << ": equal keys out of input order at " << i;
    } else if (a == b) {  // -0.0 and +0.0
      ASSERT_EQ(std::signbit(a), !descending) << what << ": zeros in the wrong order at " << i;
    } else if (descending) {
      ASSERT_GT(a, b) << what << " at " << i;
    } else {
      ASSERT_LT(a, b) << what << " at " << i;
    }
  }
}

// What the host and GPU sort tests share.

using radix_key_types =
    ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                     std::uint32_t, std::int64_t, std::uint64_t, float, double>;

// A key or value filled with 0xA5 bytes: what outputs hold before a sort.
template <class T>
T poison() {
  T x;
  std::memset(&x, 0xA5, sizeof(T));
  return x;
}

inline sort_order order_of(bool descending) {
  return descending ? sort_order::descending : sort_order::ascending;
}

inline std::string describe(std::size_t n, const char* pattern, bool descending) {
  return "n=" + std::to_string(n) + " " + pattern + (descending ? " descending" : " ascending");
}

inline std::vector<std::uint32_t> positions(std::size_t n) {
  std::vector<std::uint32_t> p(n);
  std::iota(p.begin(), p.end(), 0u);
  return p;
}

// An 8-byte value that is neither an integer nor a floating-point number.
struct pair32 {
  std::int32_t a;
  float b;
  friend bool operator==(const pair32&, const pair32&) = default;
};
static_assert(sizeof(pair32) == 8);

}  // namespace gpuprim::test
