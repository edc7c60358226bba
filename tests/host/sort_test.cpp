// The radix sort: the cases of the CPU backend alone, against the sequential
// reference of support/sort_reference.hpp (keys compared by bit pattern).
// The cases of both backends are in tests/sides/sort_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
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
#include "support/sort_cases.hpp"
#include "support/sort_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

constexpr std::uint32_t poison_value = 0xA5A5A5A5u;

}  // namespace

TEST(host_radix_sort_float, order_of_the_special_values) {
  check_order_of_the_special_floats<host_side>();
}

// ---- keys moved as their bit patterns ---------------------------------------------
// With two or more passes that move keys and no NaN among them, the first
// pass writes the keys' bit patterns and the last turns them back; keys-only
// sorts of 2^20 keys or more sort by the top digit first, then bucket by
// bucket (or fall back to the LSD sort: a NaN, a bucket of over n / 8).
// Float keys (zeros, infinities, denormals), signed keys and descending
// orders through those paths, against the reference byte for byte.

namespace {

// Random bit patterns with every NaN replaced by a number: floats of every
// exponent (and both zeros, both infinities, denormals) but no NaN.
template <class F>
std::vector<F> nan_free_keys(std::size_t n, std::mt19937_64& rng) {
  auto keys = random_bits_keys<F>(n, rng);
  const F specials[] = {F(-0.0), F(0.0), std::numeric_limits<F>::infinity(),
                        -std::numeric_limits<F>::infinity(), std::numeric_limits<F>::denorm_min()};
  for (std::size_t i = 0; i < n; ++i) {
    if (keys[i] != keys[i]) keys[i] = specials[i % 5];
  }
  for (std::size_t i = 0; i < n; i += 97)
    keys[i] = specials[(i / 97) % 5];
  return keys;
}

template <class K>
void check_sorts_of(const std::vector<K>& x, const std::string& what) {
  const std::span<const K> in(x);
  const auto pos = positions(x.size());
  for (bool descending : {false, true}) {
    const std::string w = what + (descending ? " descending" : " ascending");
    const auto order = descending ? gp::sort_order::descending : gp::sort_order::ascending;
    const auto want = reference_sort(in, descending);
    std::vector<K> out(x.size());
    gp::sort(gp::host, x, out, order);
    expect_same_bytes(out, want, w + ", out of place");
    std::vector<K> k = x;
    gp::sort(gp::host, k, order);
    expect_same_bytes(k, want, w + ", in place");
    k = x;
    std::vector<std::uint32_t> v = pos;
    gp::sort_by_key(gp::host.threads(2), k, v, order);
    expect_same_bytes(k, want, w + ", by key");
    EXPECT_EQ(v, reference_sort_permutation(in, descending)) << w << ", by key";
  }
}

}  // namespace

TEST(host_radix_sort_float, keys_without_nan_move_as_bit_patterns) {
  auto rng = make_rng(120);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1000},
                        std::size_t{70001}, (std::size_t{1} << 20) + 7}) {
    check_sorts_of(nan_free_keys<float>(n, rng), "float n=" + std::to_string(n));
    check_sorts_of(nan_free_keys<double>(n, rng), "double n=" + std::to_string(n));
  }
  // Normal floats: a few exponents hold most keys, so float's top-digit
  // buckets are large (through the digit buffers) and double's too large
  // (the LSD sort).
  std::normal_distribution<double> normal;
  const std::size_t n = (std::size_t{1} << 21) + 5;
  std::vector<float> f(n);
  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i) {
    d[i] = normal(rng);
    f[i] = static_cast<float>(d[i]);
  }
  check_sorts_of(f, "normal floats");
  check_sorts_of(d, "normal doubles");
}

TEST(host_radix_sort_float, one_nan_among_many_keeps_its_payload) {
  auto rng = make_rng(121);
  for (std::size_t n : {std::size_t{70001}, (std::size_t{1} << 20) + 7}) {
    auto f = nan_free_keys<float>(n, rng);
    f[n / 3] = std::bit_cast<float>(0xFFC01234u);  // a negative NaN with a payload
    check_sorts_of(f, "float with one NaN, n=" + std::to_string(n));
    auto d = nan_free_keys<double>(n, rng);
    d[n / 2] = std::bit_cast<double>(0x7FF0000000000001ull);  // signalling
    check_sorts_of(d, "double with one NaN, n=" + std::to_string(n));
  }
}

TEST(host_radix_sort, int64_keys_with_and_without_constant_high_digits) {
  auto rng = make_rng(122);
  for (std::size_t n :
       {std::size_t{1}, std::size_t{5000}, std::size_t{300007}, (std::size_t{1} << 21) + 3}) {
    const std::string size = " n=" + std::to_string(n);
    std::vector<std::int64_t> small(n), both_signs(n), wide(n);
    std::vector<std::uint64_t> top_only(n), few_tops(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t r = rng();
      small[i] = static_cast<std::int64_t>(r % (1u << 20));  // digits above bit 20 constant
      both_signs[i] = static_cast<std::int64_t>(r % (1u << 21)) - (1 << 20);
      wide[i] = static_cast<std::int64_t>(r);
      top_only[i] = (r >> 60) << 60;  // only the top digit varies
      // 16 top digits, each shared by n / 16 keys: buckets of the
      // top-digit-first sort large enough to go through the digit buffers.
      few_tops[i] = ((r >> 60) << 59) | (rng() >> 5);
    }
    check_sorts_of(small, "int64 in [0, 2^20)" + size);
    check_sorts_of(both_signs, "int64 in [-2^20, 2^20)" + size);
    check_sorts_of(wide, "int64 with every bit random" + size);
    check_sorts_of(top_only, "uint64 with only the top bits set" + size);
    check_sorts_of(few_tops, "uint64 with 16 top digits" + size);
  }
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
