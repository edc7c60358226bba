// CPU backend of the radix sort against the sequential reference of
// support/sort_reference.hpp (keys compared by bit pattern).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpuprim/sort.hpp"
#include "support/sort_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

constexpr std::uint32_t poison_value = 0xA5A5A5A5u;

template <class T>
std::vector<T> poisoned(std::size_t n) {
  return std::vector<T>(n, poison<T>());
}

}  // namespace

template <class K>
class host_radix_sort : public ::testing::Test {};
TYPED_TEST_SUITE(host_radix_sort, radix_key_types);

TYPED_TEST(host_radix_sort, keys_at_every_size_pattern_and_order) {
  using K = TypeParam;
  auto rng = make_rng(101);
  for (std::size_t n : sort_sizes()) {
    for (key_pattern pattern : all_key_patterns()) {
      for (bool descending : {false, true}) {
        // The big size: random keys both ways and few distinct ones
        // ascending (the other cases are covered at every tile edge below).
        if (n > 10000 && pattern != key_pattern::random_bits &&
            (pattern != key_pattern::few_distinct || descending))
          continue;
        const std::string what = describe(n, pattern_name(pattern), descending);
        const std::vector<K> x = pattern_keys<K>(pattern, n, rng);
        const std::vector<K> want = reference_sort(std::span<const K>(x), descending);
        if constexpr (std::is_integral_v<K>) {
          // The reference itself, against the integers' own order.
          const bool sorted = descending ? std::is_sorted(want.begin(), want.end(), std::greater{})
                                         : std::is_sorted(want.begin(), want.end());
          ASSERT_TRUE(sorted) << what;
        }

        std::vector<K> out = poisoned<K>(n);
        gp::sort(gp::host, x, out, order_of(descending));
        expect_same_bytes(out, want, what + " out of place");

        std::vector<K> y = x;
        gp::sort(gp::host, y, order_of(descending));
        expect_same_bytes(y, want, what + " in place");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TYPED_TEST(host_radix_sort, out_of_place_leaves_the_input_unchanged) {
  using K = TypeParam;
  auto rng = make_rng(102);
  const std::vector<K> x = random_bits_keys<K>(100003, rng);
  std::vector<K> in = x;
  std::vector<K> out = poisoned<K>(x.size());
  gp::sort(gp::host, in, out, gp::sort_order::descending);
  expect_same_bytes(in, x, "keys input");
  std::vector<std::uint32_t> values = positions(x.size());
  std::vector<K> keys_out = poisoned<K>(x.size());
  std::vector<std::uint32_t> values_out(x.size(), poison_value);
  gp::sort_by_key(gp::host, in, values, keys_out, values_out);
  expect_same_bytes(in, x, "pairs key input");
  EXPECT_EQ(values, positions(x.size()));
}

TYPED_TEST(host_radix_sort, pairs_keep_equal_keys_in_input_order) {
  using K = TypeParam;
  auto rng = make_rng(103);
  for (std::size_t n : sort_sizes()) {
    for (key_pattern pattern : {key_pattern::few_distinct, key_pattern::all_equal,
                                key_pattern::random_bits, key_pattern::reverse_sorted}) {
      if (n > 10000 && pattern != key_pattern::few_distinct) continue;
      for (bool descending : {false, true}) {
        const std::string what = describe(n, pattern_name(pattern), descending);
        const std::vector<K> x = pattern_keys<K>(pattern, n, rng);
        const std::vector<std::uint32_t> pos = positions(n);
        const auto perm = reference_sort_permutation(std::span<const K>(x), descending);
        const auto want = gather(std::span<const K>(x), perm);

        std::vector<K> keys_out = poisoned<K>(n);
        std::vector<std::uint32_t> values_out(n, poison_value);
        gp::sort_by_key(gp::host, x, pos, keys_out, values_out, order_of(descending));
        expect_same_bytes(keys_out, want, what + " keys, out of place");
        ASSERT_EQ(values_out, perm) << what << " values, out of place";
        ASSERT_EQ(pos, positions(n)) << what << " value input changed";

        std::vector<K> k = x;
        std::vector<std::uint32_t> v = pos;
        gp::sort_by_key(gp::host, k, v, order_of(descending));
        expect_same_bytes(k, want, what + " keys, in place");
        ASSERT_EQ(v, perm) << what << " values, in place";
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

template <class K, class V, class ValueOf>
void check_eight_byte_values(std::mt19937_64& rng, ValueOf value_of) {
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{8193}, std::size_t{100003}}) {
    for (key_pattern pattern : {key_pattern::few_distinct, key_pattern::random_bits}) {
      for (bool descending : {false, true}) {
        const std::string what = describe(n, pattern_name(pattern), descending);
        const std::vector<K> x = pattern_keys<K>(pattern, n, rng);
        std::vector<V> values(n);
        for (std::size_t i = 0; i < n; ++i)
          values[i] = static_cast<V>(value_of(static_cast<std::uint32_t>(i)));
        const auto perm = reference_sort_permutation(std::span<const K>(x), descending);
        const auto want_keys = gather(std::span<const K>(x), perm);
        const auto want_values = gather(std::span<const V>(values), perm);

        std::vector<K> keys_out = poisoned<K>(n);
        std::vector<V> values_out = poisoned<V>(n);
        gp::sort_by_key(gp::host, x, values, keys_out, values_out, order_of(descending));
        expect_same_bytes(keys_out, want_keys, what + " keys, out of place");
        expect_same_bytes(values_out, want_values, what + " values, out of place");

        std::vector<K> k = x;
        gp::sort_by_key(gp::host, k, values, order_of(descending));
        expect_same_bytes(k, want_keys, what + " keys, in place");
        expect_same_bytes(values, want_values, what + " values, in place");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TYPED_TEST(host_radix_sort, eight_byte_values_move_with_their_keys) {
  using K = TypeParam;
  auto rng = make_rng(104);
  check_eight_byte_values<K, std::uint64_t>(
      rng, [](std::uint32_t i) { return std::uint64_t{i} * 0x9E3779B97F4A7C15ull; });
  check_eight_byte_values<K, double>(rng, [](std::uint32_t i) { return i + 0.25 * (i % 4); });
  check_eight_byte_values<K, pair32>(rng, [](std::uint32_t i) {
    return pair32{static_cast<std::int32_t>(i), -static_cast<float>(i)};
  });
  // 4-byte values that are not integers either.
  check_eight_byte_values<K, float>(rng, [](std::uint32_t i) { return i * 0.5f; });
}

TYPED_TEST(host_radix_sort, bit_ranges) {
  using K = TypeParam;
  constexpr int bits = 8 * sizeof(K);
  auto rng = make_rng(105);
  auto ranges = bit_ranges_for(bits);
  ranges.push_back({4, -1});  // end -1: up to the top bit
  for (const auto& [begin, end] : ranges) {
    for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{4097}, std::size_t{20011}}) {
      for (bool descending : {false, true}) {
        const std::string what = "key_bits{" + std::to_string(begin) + ", " + std::to_string(end) +
                                 "} " + describe(n, "random bits", descending);
        const gp::key_bits range{begin, end};
        const std::vector<K> x = random_bits_keys<K>(n, rng);
        const std::vector<std::uint32_t> pos = positions(n);
        const auto perm = reference_sort_permutation(std::span<const K>(x), descending, begin, end);
        const auto want = gather(std::span<const K>(x), perm);

        std::vector<K> keys_out = poisoned<K>(n);
        std::vector<std::uint32_t> values_out(n, poison_value);
        gp::sort_by_key(gp::host, x, pos, keys_out, values_out, order_of(descending), range);
        expect_same_bytes(keys_out, want, what + " keys, out of place");
        ASSERT_EQ(values_out, perm) << what;

        std::vector<K> k = x;
        gp::sort(gp::host, k, order_of(descending), range);
        expect_same_bytes(k, want, what + " keys only, in place");
        if (begin == end) expect_same_bytes(k, x, what + ": an empty bit range moves nothing");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TYPED_TEST(host_radix_sort, thread_counts_give_the_same_stable_result) {
  using K = TypeParam;
  auto rng = make_rng(106);
  for (key_pattern pattern : {key_pattern::few_distinct, key_pattern::random_bits}) {
    const std::vector<K> x = pattern_keys<K>(pattern, 300007, rng);
    const std::vector<std::uint32_t> pos = positions(x.size());
    const auto perm = reference_sort_permutation(std::span<const K>(x), false);
    const auto want = gather(std::span<const K>(x), perm);
    for (int threads : {1, 2, 3, 8}) {
      const std::string what =
          std::string(pattern_name(pattern)) + ", " + std::to_string(threads) + " threads";
      std::vector<K> k = x;
      std::vector<std::uint32_t> v = pos;
      gp::sort_by_key(gp::host.threads(threads), k, v);
      expect_same_bytes(k, want, what);
      ASSERT_EQ(v, perm) << what;
    }
  }
}

TYPED_TEST(host_radix_sort, unaligned_subspans) {
  using K = TypeParam;
  auto rng = make_rng(107);
  const std::vector<K> x = random_bits_keys<K>(50000, rng);
  for (std::size_t offset : {1u, 3u}) {
    const std::size_t n = x.size() - 2 * offset;
    const auto in = std::span<const K>(x).subspan(offset, n);
    const auto want = reference_sort(in, true);
    std::vector<K> out = poisoned<K>(x.size() + 2);
    gp::sort(gp::host, in, std::span<K>(out).subspan(offset + 1, n), gp::sort_order::descending);
    expect_same_bytes(std::span<const K>(out).subspan(offset + 1, n), std::span<const K>(want),
                      "unaligned");
    EXPECT_TRUE(same_bytes(out[offset], poison<K>())) << "wrote before the output";
    EXPECT_TRUE(same_bytes(out[offset + 1 + n], poison<K>())) << "wrote past the output";
  }
}

// ---- float keys --------------------------------------------------------------

template <class F>
class host_radix_sort_float : public ::testing::Test {};
using float_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(host_radix_sort_float, float_types);

TYPED_TEST(host_radix_sort_float, nan_zeros_infinities_and_denormals) {
  using F = TypeParam;
  auto rng = make_rng(108);
  const std::vector<F> specials = special_float_keys<F>();
  for (std::size_t copies : {1u, 3u, 2000u}) {
    std::vector<F> x;
    for (std::size_t c = 0; c < copies; ++c)
      x.insert(x.end(), specials.begin(), specials.end());
    if (copies > 1) {
      std::shuffle(x.begin(), x.end(), rng);
      const auto more = random_bits_keys<F>(copies * 10, rng);
      x.insert(x.end(), more.begin(), more.end());
    }
    const std::vector<std::uint32_t> pos = positions(x.size());
    for (bool descending : {false, true}) {
      const std::string what = describe(x.size(), "special floats", descending);
      std::vector<F> keys_out = poisoned<F>(x.size());
      std::vector<std::uint32_t> values_out(x.size(), poison_value);
      gp::sort_by_key(gp::host, x, pos, keys_out, values_out, order_of(descending));
      expect_float_sort_order<F>(x, keys_out, values_out, descending, what);
      const auto perm = reference_sort_permutation(std::span<const F>(x), descending);
      expect_same_bytes(keys_out, gather(std::span<const F>(x), perm), what + " vs reference");
      ASSERT_EQ(values_out, perm) << what;

      std::vector<F> k = x;
      gp::sort(gp::host, k, order_of(descending));
      expect_same_bytes(k, keys_out, what + " keys only, in place");
    }
  }
}

TEST(host_radix_sort_float, order_of_the_special_values) {
  using L = std::numeric_limits<float>;
  const float nan = L::quiet_NaN();
  std::vector<float> x = {
      nan,  1.0f,           -0.0f,           L::infinity(), 0.0f, -L::denorm_min(),
      -nan, -L::infinity(), L::denorm_min(), -1.0f};
  std::vector<float> asc = x;
  gp::sort(gp::host, asc);
  const std::vector<float> want_asc = {-L::infinity(),  -1.0f, -L::denorm_min(), -0.0f, 0.0f,
                                       L::denorm_min(), 1.0f,  L::infinity(),    nan,   -nan};
  expect_same_bytes(asc, want_asc, "ascending");
  std::vector<float> desc(x.size());
  gp::sort(gp::host, x, desc, gp::sort_order::descending);
  const std::vector<float> want_desc = {L::infinity(),    1.0f,  L::denorm_min(), 0.0f, -0.0f,
                                        -L::denorm_min(), -1.0f, -L::infinity(),  nan,  -nan};
  expect_same_bytes(desc, want_desc, "descending (NaNs still last, in input order)");
}

// ---- stable_ names, and errors ----------------------------------------------------

TEST(host_radix_sort, stable_names_are_the_same_sorts) {
  auto rng = make_rng(109);
  const auto x = pattern_keys<std::int32_t>(key_pattern::few_distinct, 10007, rng);
  const auto pos = positions(x.size());

  std::vector<std::int32_t> k = x;
  gp::stable_sort(gp::host, k);
  expect_same_bytes(k, reference_sort(std::span<const std::int32_t>(x), false), "stable_sort");
  gp::stable_sort(gp::host, k, gp::sort_order::descending);
  expect_same_bytes(k, reference_sort(std::span<const std::int32_t>(x), true),
                    "stable_sort descending");

  std::vector<std::int32_t> out(x.size());
  gp::stable_sort(gp::host, x, out, gp::sort_order::ascending, gp::key_bits{0, 8});
  expect_same_bytes(out, reference_sort(std::span<const std::int32_t>(x), false, 0, 8),
                    "stable_sort out of place, key_bits{0, 8}");

  k = x;
  std::vector<std::uint32_t> v = pos;
  gp::stable_sort_by_key(gp::host, k, v);
  EXPECT_EQ(v, reference_sort_permutation(std::span<const std::int32_t>(x), false));

  std::vector<std::uint32_t> v_out(x.size());
  gp::stable_sort_by_key(gp::host, x, pos, out, v_out, gp::sort_order::descending,
                         gp::key_bits{4, 12});
  EXPECT_EQ(v_out, reference_sort_permutation(std::span<const std::int32_t>(x), true, 4, 12));
}

TEST(host_radix_sort, empty_and_same_memory_out_of_place) {
  std::vector<double> none, none_out;
  gp::sort(gp::host, none);
  gp::sort(gp::host, none, none_out, gp::sort_order::descending);
  std::vector<std::uint64_t> no_values;
  gp::sort_by_key(gp::host, none, no_values);

  // An out-of-place sort whose output is its input's memory sorts in place.
  auto rng = make_rng(110);
  const auto x = random_bits_keys<std::uint16_t>(5000, rng);
  std::vector<std::uint16_t> y = x;
  gp::sort(gp::host, std::span<const std::uint16_t>(y), std::span<std::uint16_t>(y));
  expect_same_bytes(y, reference_sort(std::span<const std::uint16_t>(x), false), "same memory");
}

TEST(host_radix_sort, bad_sizes_throw_and_leave_outputs_untouched) {
  const std::vector<std::int32_t> keys(100, 5);
  std::vector<std::int32_t> k = keys;
  std::vector<std::uint32_t> short_values(99, poison_value);
  EXPECT_THROW(gp::sort_by_key(gp::host, k, short_values), std::invalid_argument);
  EXPECT_EQ(k, keys);
  EXPECT_EQ(short_values, std::vector<std::uint32_t>(99, poison_value));

  for (std::size_t size : {99u, 101u, 0u}) {
    std::vector<std::int32_t> out(size, -1);
    EXPECT_THROW(gp::sort(gp::host, keys, out), std::invalid_argument) << size;
    EXPECT_EQ(out, std::vector<std::int32_t>(size, -1));
  }

  const std::vector<std::uint64_t> values(100, 7);
  const auto untouched_outputs = [](std::vector<std::int32_t>& ko, std::vector<std::uint64_t>& vo,
                                    const char* what) {
    for (auto x : ko)
      ASSERT_EQ(x, -1) << what;
    for (auto x : vo)
      ASSERT_EQ(x, 0xA5A5A5A5A5A5A5A5ull) << what;
  };
  {
    std::vector<std::int32_t> ko(100, -1);
    std::vector<std::uint64_t> vo(99, 0xA5A5A5A5A5A5A5A5ull);
    EXPECT_THROW(gp::sort_by_key(gp::host, keys, values, ko, vo), std::invalid_argument);
    untouched_outputs(ko, vo, "value output too short");
  }
  {
    std::vector<std::int32_t> ko(101, -1);
    std::vector<std::uint64_t> vo(100, 0xA5A5A5A5A5A5A5A5ull);
    EXPECT_THROW(gp::sort_by_key(gp::host, keys, values, ko, vo), std::invalid_argument);
    untouched_outputs(ko, vo, "key output too long");
  }
  {
    const std::vector<std::uint64_t> short_in(99, 7);
    std::vector<std::int32_t> ko(100, -1);
    std::vector<std::uint64_t> vo(100, 0xA5A5A5A5A5A5A5A5ull);
    EXPECT_THROW(gp::sort_by_key(gp::host, keys, short_in, ko, vo), std::invalid_argument);
    untouched_outputs(ko, vo, "value input too short");
  }
}

TEST(host_radix_sort, bad_bit_ranges_throw_and_leave_outputs_untouched) {
  auto rng = make_rng(111);
  const auto x32 = random_bits_keys<std::uint32_t>(1000, rng);
  for (const auto& [begin, end] : std::vector<std::pair<int, int>>{
           {-1, 8}, {0, 33}, {9, 8}, {33, -1}, {40, 40}, {32, 31}, {-8, -1}}) {
    const std::string what = "key_bits{" + std::to_string(begin) + ", " + std::to_string(end) + "}";
    std::vector<std::uint32_t> k = x32;
    EXPECT_THROW(gp::sort(gp::host, k, gp::sort_order::ascending, gp::key_bits{begin, end}),
                 std::invalid_argument)
        << what;
    EXPECT_EQ(k, x32) << what;
    std::vector<std::uint32_t> out(x32.size(), poison_value);
    EXPECT_THROW(gp::sort(gp::host, x32, out, gp::sort_order::descending, gp::key_bits{begin, end}),
                 std::invalid_argument)
        << what;
    EXPECT_EQ(out, std::vector<std::uint32_t>(x32.size(), poison_value)) << what;
  }
  std::vector<std::uint8_t> k8(100, 3);
  std::vector<std::uint32_t> v8(100, poison_value);
  EXPECT_THROW(gp::sort_by_key(gp::host, k8, v8, gp::sort_order::ascending, gp::key_bits{0, 9}),
               std::invalid_argument);
  EXPECT_EQ(k8, std::vector<std::uint8_t>(100, 3));
  EXPECT_EQ(v8, std::vector<std::uint32_t>(100, poison_value));
  std::vector<double> kd(100, 1.5);
  EXPECT_THROW(gp::sort(gp::host, kd, gp::sort_order::ascending, gp::key_bits{0, 65}),
               std::invalid_argument);
  // The full ranges are fine.
  gp::sort(gp::host, kd, gp::sort_order::ascending, gp::key_bits{0, 64});
  gp::sort(gp::host, k8, gp::sort_order::ascending, gp::key_bits{8, 8});
}

TEST(host_radix_sort, overlapping_ranges_throw_and_leave_memory_untouched) {
  std::vector<std::int32_t> y(200);
  std::iota(y.begin(), y.end(), -100);
  std::reverse(y.begin(), y.end());
  const auto before = y;
  EXPECT_THROW(gp::sort(gp::host, std::span<const std::int32_t>(y).subspan(0, 100),
                        std::span<std::int32_t>(y).subspan(1, 100)),
               std::invalid_argument);
  EXPECT_THROW(gp::sort(gp::host, std::span<const std::int32_t>(y).subspan(50, 100),
                        std::span<std::int32_t>(y).subspan(0, 100)),
               std::invalid_argument);
  EXPECT_EQ(y, before);

  // Values overlapping their own output, or the keys.
  std::vector<std::uint32_t> buffer(300, 1);
  const std::vector<std::int32_t> keys(100, 4);
  std::vector<std::int32_t> keys_out(100, -1);
  auto all = std::span<std::uint32_t>(buffer);
  EXPECT_THROW(gp::sort_by_key(gp::host, keys, std::span<const std::uint32_t>(all.subspan(0, 100)),
                               keys_out, all.subspan(10, 100)),
               std::invalid_argument);
  std::vector<std::uint32_t> ukeys(100, 9);
  EXPECT_THROW(gp::sort_by_key(gp::host, all.subspan(0, 100), all.subspan(50, 100)),
               std::invalid_argument);
  EXPECT_THROW(gp::sort_by_key(gp::host, std::span<const std::uint32_t>(ukeys),
                               std::span<const std::uint32_t>(all.subspan(0, 100)),
                               all.subspan(150, 100), all.subspan(100, 100)),
               std::invalid_argument);
  EXPECT_EQ(buffer, std::vector<std::uint32_t>(300, 1));
  EXPECT_EQ(keys_out, std::vector<std::int32_t>(100, -1));
}
