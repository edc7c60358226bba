// The radix sort test bodies the host and CUDA suites share, each run on a
// `Side` (support/sides.hpp: host_side, cuda_side). Every body checks
// against the sequential reference of sort_reference.hpp, keys by bit
// pattern, and checks that out-of-place sorts leave their inputs as they
// were.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/sort.hpp"
#include "support/sides.hpp"
#include "support/sort_reference.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

// n elements of 0xA5 bytes on `Side`: what a sort must overwrite.
template <class Side, class T>
auto poisoned_on(std::size_t n) {
  return Side::put(std::vector<T>(n, poison<T>()));
}

// What sort_by_key(keys, values, outputs, extra...) on `Side` leaves, read
// back to the host: the inputs (which must be as they were) and the
// outputs (poisoned before the call).
template <class K, class V>
struct pairs_sorted {
  std::vector<K> keys_in, keys_out;
  std::vector<V> values_in, values_out;
};
template <class Side, class K, class V, class... Extra>
pairs_sorted<K, V> sort_pairs_out_of_place(const std::vector<K>& keys, const std::vector<V>& values,
                                           Extra... extra) {
  const auto keys_in = Side::put(keys);
  const auto values_in = Side::put(values);
  auto keys_out = poisoned_on<Side, K>(keys.size());
  auto values_out = poisoned_on<Side, V>(keys.size());
  gpuprim::sort_by_key(Side::backend(), keys_in, values_in, keys_out, values_out, extra...);
  return {Side::get(keys_in), Side::get(keys_out), Side::get(values_in), Side::get(values_out)};
}

// The keys and values after sort_by_key(keys, values, extra...) in place.
template <class Side, class K, class V, class... Extra>
std::pair<std::vector<K>, std::vector<V>> sort_pairs_in_place(const std::vector<K>& keys,
                                                              const std::vector<V>& values,
                                                              Extra... extra) {
  auto k = Side::put(keys);
  auto v = Side::put(values);
  gpuprim::sort_by_key(Side::backend(), k, v, extra...);
  return {Side::get(k), Side::get(v)};
}

// Keys only, out of place and in place, every pattern and both orders at
// every size. Past 10^4 keys only random keys (both ways below 2^21,
// ascending above) and few distinct ones ascending (below 2^21): the other
// cases are covered at every tile edge below.
template <class Side, class K>
void check_keys_at_every_size(const std::vector<std::size_t>& sizes, std::mt19937_64& rng) {
  for (std::size_t n : sizes) {
    for (key_pattern pattern : all_key_patterns()) {
      for (bool descending : {false, true}) {
        if (n > 10000) {
          const bool random = pattern == key_pattern::random_bits;
          const bool few = pattern == key_pattern::few_distinct && n < (1u << 21);
          if (!(random && (!descending || n < (1u << 21))) && !(few && !descending)) continue;
        }
        const std::string what = describe(n, pattern_name(pattern), descending);
        const std::vector<K> x = pattern_keys<K>(pattern, n, rng);
        const std::vector<K> want = reference_sort(std::span<const K>(x), descending);
        if constexpr (std::is_integral_v<K>) {
          // The reference itself, against the integers' own order.
          const bool sorted = descending ? std::is_sorted(want.begin(), want.end(), std::greater{})
                                         : std::is_sorted(want.begin(), want.end());
          ASSERT_TRUE(sorted) << what;
        }

        const auto in = Side::put(x);
        auto out = poisoned_on<Side, K>(n);
        gpuprim::sort(Side::backend(), in, out, order_of(descending));
        expect_same_bytes(Side::get(out), want, what + " out of place");
        expect_same_bytes(Side::get(in), x, what + ": the input changed");

        auto y = Side::put(x);
        gpuprim::sort(Side::backend(), y, order_of(descending));
        expect_same_bytes(Side::get(y), want, what + " in place");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// Pairs with uint32 positions as values: equal keys keep their input order,
// out of place and in place.
template <class Side, class K>
void check_pairs_keep_equal_keys_in_input_order(const std::vector<std::size_t>& sizes,
                                                std::mt19937_64& rng) {
  for (std::size_t n : sizes) {
    for (key_pattern pattern : {key_pattern::few_distinct, key_pattern::all_equal,
                                key_pattern::random_bits, key_pattern::reverse_sorted}) {
      if (n > 10000 && pattern != key_pattern::few_distinct) continue;
      for (bool descending : {false, true}) {
        const std::string what = describe(n, pattern_name(pattern), descending);
        const std::vector<K> x = pattern_keys<K>(pattern, n, rng);
        const std::vector<std::uint32_t> pos = positions(n);
        const auto perm = reference_sort_permutation(std::span<const K>(x), descending);
        const auto want = gather(std::span<const K>(x), perm);

        const auto out = sort_pairs_out_of_place<Side>(x, pos, order_of(descending));
        expect_same_bytes(out.keys_out, want, what + " keys, out of place");
        ASSERT_EQ(out.values_out, perm) << what << " values, out of place";
        expect_same_bytes(out.keys_in, x, what + ": the key input changed");
        ASSERT_EQ(out.values_in, pos) << what << ": the value input changed";

        const auto [k, v] = sort_pairs_in_place<Side>(x, pos, order_of(descending));
        expect_same_bytes(k, want, what + " keys, in place");
        ASSERT_EQ(v, perm) << what << " values, in place";
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// Pairs whose values are V (value_of(i) for position i): values of any
// 4- or 8-byte type move with their keys.
template <class Side, class K, class V, class ValueOf>
void check_value_type(std::mt19937_64& rng, ValueOf value_of) {
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{4097}, std::size_t{8193},
                        std::size_t{100003}}) {
    for (key_pattern pattern : {key_pattern::few_distinct, key_pattern::random_bits}) {
      for (bool descending : {false, true}) {
        const std::string what = describe(n, pattern_name(pattern), descending) + ", " +
                                 std::to_string(sizeof(V)) + "-byte values";
        const std::vector<K> x = pattern_keys<K>(pattern, n, rng);
        std::vector<V> values(n);
        for (std::size_t i = 0; i < n; ++i)
          values[i] = static_cast<V>(value_of(static_cast<std::uint32_t>(i)));
        const auto perm = reference_sort_permutation(std::span<const K>(x), descending);
        const auto want_keys = gather(std::span<const K>(x), perm);
        const auto want_values = gather(std::span<const V>(values), perm);

        const auto out = sort_pairs_out_of_place<Side>(x, values, order_of(descending));
        expect_same_bytes(out.keys_out, want_keys, what + " keys, out of place");
        expect_same_bytes(out.values_out, want_values, what + " values, out of place");
        expect_same_bytes(out.values_in, values, what + ": the value input changed");

        const auto [k, v] = sort_pairs_in_place<Side>(x, values, order_of(descending));
        expect_same_bytes(k, want_keys, what + " keys, in place");
        expect_same_bytes(v, want_values, what + " values, in place");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// 8-byte values of three kinds, and 4-byte values that are not integers.
template <class Side, class K>
void check_value_types(std::mt19937_64& rng) {
  check_value_type<Side, K, std::uint64_t>(
      rng, [](std::uint32_t i) { return std::uint64_t{i} * 0x9E3779B97F4A7C15ull; });
  check_value_type<Side, K, double>(rng, [](std::uint32_t i) { return i + 0.25 * (i % 4); });
  check_value_type<Side, K, pair32>(rng, [](std::uint32_t i) {
    return pair32{static_cast<std::int32_t>(i), -static_cast<float>(i)};
  });
  check_value_type<Side, K, float>(rng, [](std::uint32_t i) { return i * 0.5f; });
}

// key_bits{begin, end}: only those bits of the order pattern are compared,
// equal ones keep their input order; an empty range moves nothing.
template <class Side, class K>
void check_bit_ranges(const std::vector<std::size_t>& sizes, std::mt19937_64& rng) {
  auto ranges = bit_ranges_for(8 * sizeof(K));
  ranges.push_back({4, -1});  // end -1: up to the top bit
  for (const auto& [begin, end] : ranges) {
    for (std::size_t n : sizes) {
      for (bool descending : {false, true}) {
        const std::string what = "key_bits{" + std::to_string(begin) + ", " + std::to_string(end) +
                                 "} " + describe(n, "random bits", descending);
        const gpuprim::key_bits range{begin, end};
        const std::vector<K> x = random_bits_keys<K>(n, rng);
        const std::vector<std::uint32_t> pos = positions(n);
        const auto perm = reference_sort_permutation(std::span<const K>(x), descending, begin, end);
        const auto want = gather(std::span<const K>(x), perm);

        const auto out = sort_pairs_out_of_place<Side>(x, pos, order_of(descending), range);
        expect_same_bytes(out.keys_out, want, what + " keys, out of place");
        ASSERT_EQ(out.values_out, perm) << what;

        auto k = Side::put(x);
        gpuprim::sort(Side::backend(), k, order_of(descending), range);
        const std::vector<K> sorted = Side::get(k);
        expect_same_bytes(sorted, want, what + " keys only, in place");
        if (begin == end) expect_same_bytes(sorted, x, what + ": an empty bit range moves nothing");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// Unaligned subspans in and out (offsets 1 and 3), pairs out of place and
// keys in place: nothing outside the subspans is written.
template <class Side, class K>
void check_unaligned_subspans(std::mt19937_64& rng) {
  const std::vector<K> x = random_bits_keys<K>(50000, rng);
  const std::vector<std::uint32_t> pos = positions(x.size());
  const auto keys_in = Side::put(x);
  const auto values_in = Side::put(pos);
  for (std::size_t offset : {1u, 3u}) {
    const std::size_t n = x.size() - 2 * offset;
    const auto in = std::span<const K>(x).subspan(offset, n);
    const auto perm = reference_sort_permutation(in, true);
    const auto want = gather(in, perm);
    auto keys_out = poisoned_on<Side, K>(x.size() + 2);
    auto values_out = poisoned_on<Side, std::uint32_t>(x.size() + 2);
    gpuprim::sort_by_key(
        Side::backend(), Side::span(keys_in).subspan(offset, n),
        Side::span(values_in).subspan(offset, n), Side::span(keys_out).subspan(offset + 1, n),
        Side::span(values_out).subspan(offset, n), gpuprim::sort_order::descending);
    const std::vector<K> got = Side::get(keys_out);
    expect_same_bytes(std::span<const K>(got).subspan(offset + 1, n), std::span<const K>(want),
                      "unaligned keys");
    EXPECT_TRUE(same_bytes(got[offset], poison<K>())) << "wrote before the output";
    EXPECT_TRUE(same_bytes(got[offset + 1 + n], poison<K>())) << "wrote past the output";
    const std::vector<std::uint32_t> got_values = Side::get(values_out);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(got_values[offset + i], perm[i] + offset) << "unaligned values at " << i;

    // In place on an unaligned subspan.
    auto y = Side::put(x);
    gpuprim::sort(Side::backend(), Side::span(y).subspan(offset, n),
                  gpuprim::sort_order::descending);
    const std::vector<K> sorted = Side::get(y);
    expect_same_bytes(std::span<const K>(sorted).subspan(offset, n), std::span<const K>(want),
                      "unaligned in place");
    EXPECT_TRUE(same_bytes(sorted[offset - 1], x[offset - 1])) << "wrote before the subspan";
    EXPECT_TRUE(same_bytes(sorted[offset + n], x[offset + n])) << "wrote past the subspan";
  }
}

// NaNs (last both ways, in input order), -0.0 before +0.0, infinities and
// denormals, alone and shuffled among random keys, `copies` times each.
template <class Side, class F>
void check_special_floats(const std::vector<std::size_t>& copies_list, std::mt19937_64& rng) {
  const std::vector<F> specials = special_float_keys<F>();
  for (std::size_t copies : copies_list) {
    std::vector<F> x;
    for (std::size_t c = 0; c < copies; ++c)
      x.insert(x.end(), specials.begin(), specials.end());
    if (copies > 1) {
      std::shuffle(x.begin(), x.end(), rng);
      const auto more = random_bits_keys<F>(copies * 10, rng);
      x.insert(x.end(), more.begin(), more.end());
    }
    const std::vector<std::uint32_t> pos = positions(x.size());
    const auto keys_in = Side::put(x);
    const auto values_in = Side::put(pos);
    for (bool descending : {false, true}) {
      const std::string what = describe(x.size(), "special floats", descending);
      auto keys_out = poisoned_on<Side, F>(x.size());
      auto values_out = poisoned_on<Side, std::uint32_t>(x.size());
      gpuprim::sort_by_key(Side::backend(), keys_in, values_in, keys_out, values_out,
                           order_of(descending));
      const std::vector<F> got = Side::get(keys_out);
      const std::vector<std::uint32_t> got_values = Side::get(values_out);
      expect_float_sort_order<F>(x, got, got_values, descending, what);
      const auto perm = reference_sort_permutation(std::span<const F>(x), descending);
      expect_same_bytes(got, gather(std::span<const F>(x), perm), what + " vs reference");
      ASSERT_EQ(got_values, perm) << what;

      auto k = Side::put(x);
      gpuprim::sort(Side::backend(), k, order_of(descending));
      expect_same_bytes(Side::get(k), got, what + " keys only, in place");
    }
  }
}

// The order of the special float values, spelled out.
template <class Side>
void check_order_of_the_special_floats() {
  using L = std::numeric_limits<float>;
  const float nan = L::quiet_NaN();
  const std::vector<float> x = {
      nan,  1.0f,           -0.0f,           L::infinity(), 0.0f, -L::denorm_min(),
      -nan, -L::infinity(), L::denorm_min(), -1.0f};
  auto asc = Side::put(x);
  gpuprim::sort(Side::backend(), asc);
  const std::vector<float> want_asc = {-L::infinity(),  -1.0f, -L::denorm_min(), -0.0f, 0.0f,
                                       L::denorm_min(), 1.0f,  L::infinity(),    nan,   -nan};
  expect_same_bytes(Side::get(asc), want_asc, "ascending");
  const auto in = Side::put(x);
  auto desc = poisoned_on<Side, float>(x.size());
  gpuprim::sort(Side::backend(), in, desc, gpuprim::sort_order::descending);
  const std::vector<float> want_desc = {L::infinity(),    1.0f,  L::denorm_min(), 0.0f, -0.0f,
                                        -L::denorm_min(), -1.0f, -L::infinity(),  nan,  -nan};
  expect_same_bytes(Side::get(desc), want_desc, "descending (NaNs still last, in input order)");
}

}  // namespace gpuprim::test
