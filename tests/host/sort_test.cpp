// The radix sort: the cases of the CPU backend alone, against the sequential
// reference of support/sort_reference.hpp (keys compared by bit pattern).
// The cases of both backends are in tests/sides/sort_test.cpp.
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
