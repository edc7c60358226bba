// The scan family on each backend (support/side_test.hpp) against the
// sequential references, outputs poisoned before each call. The backends'
// own cases are in tests/host/scan_test.cpp and tests/cuda/scan_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "gpuprim/scan.hpp"
#include "support/scan_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

SIDE_TYPED_SUITE(scan, side_value_types);

SIDE_TYPED_TEST(scan, inclusive_and_exclusive_sums_at_every_size) {
  auto rng = make_rng(41);
  std::vector<std::size_t> sizes = standard_sizes();
  sizes.push_back(4096);  // exactly one GPU tile of 4-byte types
  sizes.push_back(4096 * 3 + 1);
  for (std::size_t n : test_sizes(sizes)) {
    const auto x = random_vector<T>(n, rng);
    const auto d = side::put(x);
    auto out = side::filled_bytes<T>(n, 0xA5);
    gp::inclusive_scan(side::backend(), d, out);
    expect_scan_near<T>(side::get(out),
                        reference_inclusive_scan<exact_t<T>>(std::span<const T>(x), gp::plus{}),
                        "inclusive");
    out = side::filled_bytes<T>(n, 0xA5);
    gp::exclusive_scan(side::backend(), d, out, T(3));
    expect_scan_near<T>(
        side::get(out),
        reference_exclusive_scan<exact_t<T>>(std::span<const T>(x), exact_t<T>(3), gp::plus{}),
        "exclusive");
  }
}

SIDE_TYPED_TEST(scan, min_max_and_in_place) {
  auto rng = make_rng(42);
  const auto x = random_vector<T>(2'000'003, rng);
  auto d = side::put(x);
  auto out = side::filled_bytes<T>(x.size(), 0xA5);
  gp::inclusive_scan(side::backend(), d, out, gp::minimum{});
  expect_scan_near<T>(side::get(out),
                      reference_inclusive_scan<T>(std::span<const T>(x), gp::minimum{}), "min");
  const auto want_max = reference_exclusive_scan<T>(
      std::span<const T>(x), std::numeric_limits<T>::lowest(), gp::maximum{});
  out = side::filled_bytes<T>(x.size(), 0xA5);
  gp::exclusive_scan(side::backend(), d, out, std::numeric_limits<T>::lowest(), gp::maximum{});
  expect_scan_near<T>(side::get(out), want_max, "max");
  gp::exclusive_scan(side::backend(), d, d, std::numeric_limits<T>::lowest(), gp::maximum{});
  expect_scan_near<T>(side::get(d), want_max, "max in place");
}

#if GPUPRIM_TEST_ON_CUDA
SIDE_TYPED_TEST(scan, unaligned_subspans) {
  auto rng = make_rng(43);
  const auto x = random_vector<T>(50000, rng);
  const auto d = side::put(x);
  auto out = side::filled_bytes<T>(x.size(), 0xA5);
  for (std::size_t offset : {1u, 3u}) {
    const std::size_t n = x.size() - 2 * offset;
    gp::inclusive_scan(side::backend(), side::span(d).subspan(offset, n),
                       side::span(out).subspan(0, n));
    auto got = side::get(out);
    got.resize(n);
    expect_scan_near<T>(
        got,
        reference_inclusive_scan<exact_t<T>>(std::span<const T>(x).subspan(offset, n), gp::plus{}),
        "unaligned");
  }
}
#endif

SIDE_TEST(scan, bad_ranges_throw_and_leave_output_untouched) {
  const auto x = side::put(std::vector<int>(100, 1));
  auto small = side::filled_bytes<int>(99, 0x11);
  EXPECT_THROW(gp::inclusive_scan(side::backend(), x, small), std::invalid_argument);
  EXPECT_EQ(side::get(small), std::vector<int>(99, 0x11111111));
  auto y = side::put(std::vector<int>(200, 1));
  EXPECT_THROW(gp::inclusive_scan(side::backend(), side::span(y).subspan(0, 100),
                                  side::span(y).subspan(1, 100)),
               std::invalid_argument);
  EXPECT_EQ(side::get(y), std::vector<int>(200, 1));
}

// NaN: gp::minimum / maximum propagate it (on the GPU across the tiles'
// look-back), gp::minimum_number / maximum_number skip it.
SIDE_TYPED_SUITE(scan_nan, side_float_types);

SIDE_TYPED_TEST(scan_nan, minimum_propagates_and_minimum_number_skips) {
  const T inf = std::numeric_limits<T>::infinity();
  for (std::size_t n :
       {std::size_t{7}, std::size_t{4096 * 3 + 17}, std::size_t{100'003}, std::size_t{2'000'003}}) {
    const auto x = values_with_nans<T>(n, n / 2 + 3);
    auto numbers_first = x;
    numbers_first[0] = numbers_first[1] = T(0.5);
    const auto d = side::put(x);
    const auto d_numbers_first = side::put(numbers_first);
    auto out = side::filled_bytes<T>(n, 0xA5);
    gp::inclusive_scan(side::backend(), d_numbers_first, out, gp::minimum{});
    expect_same_with_nan(side::get(out), nan_rule_reference<T>(numbers_first, false, false, {}),
                         "min");
    gp::inclusive_scan(side::backend(), d, out, gp::maximum{});
    expect_same_with_nan(side::get(out), nan_rule_reference<T>(x, true, false, {}),
                         "max, leading NaN");
    gp::inclusive_scan(side::backend(), d, out, gp::minimum_number{});
    expect_same_with_nan(side::get(out), nan_rule_reference<T>(x, false, true, {}), "nanmin");
    gp::inclusive_scan(side::backend(), d, out, gp::maximum_number{});
    expect_same_with_nan(side::get(out), nan_rule_reference<T>(x, true, true, {}), "nanmax");
    gp::exclusive_scan(side::backend(), d_numbers_first, out, inf, gp::minimum{});
    expect_same_with_nan(side::get(out), nan_rule_reference<T>(numbers_first, false, false, inf),
                         "exclusive min");
    gp::exclusive_scan(side::backend(), d, out, -inf, gp::maximum_number{});
    expect_same_with_nan(side::get(out), nan_rule_reference<T>(x, true, true, -inf),
                         "exclusive nanmax");
  }
}

// Without init an exclusive scan starts from the operator's identity, so
// exclusive out[i] is inclusive out[i - 1] for every operator, the NaN
// rules included: for the NaN-skipping ones the identity is NaN (issue 41:
// [nan, 1, nan, 2] gave [-inf, -inf, 1, 1] from -inf where the inclusive
// scan is [nan, 1, 1, 2]).
template <class T, class Op>
void expect_exclusive_is_inclusive_shifted(const std::vector<T>& x, Op op, const char* what) {
  const auto d = side::put(x);
  auto inclusive = side::filled_bytes<T>(x.size(), 0xA5);
  auto exclusive = side::filled_bytes<T>(x.size(), 0xA5);
  gp::inclusive_scan(side::backend(), d, inclusive, op);
  gp::exclusive_scan(side::backend(), d, exclusive, op);
  const std::vector<T> inc = side::get(inclusive);
  std::vector<T> want(x.size());
  if (!x.empty()) want[0] = gp::identity_of<T>(op);
  for (std::size_t i = 1; i < x.size(); ++i)
    want[i] = inc[i - 1];
  expect_same_with_nan(side::get(exclusive), want, what);
}

SIDE_TYPED_TEST(scan_nan, exclusive_from_the_identity_is_the_inclusive_shifted) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> issue{nan, T(1), nan, T(2)};
  for (const auto& x :
       {issue, values_with_nans<T>(4096 * 3 + 17, 5000), values_with_nans<T>(100'003, 60'000)}) {
    expect_exclusive_is_inclusive_shifted(x, gp::minimum{}, "min");
    expect_exclusive_is_inclusive_shifted(x, gp::maximum{}, "max");
    expect_exclusive_is_inclusive_shifted(x, gp::minimum_number{}, "nanmin");
    expect_exclusive_is_inclusive_shifted(x, gp::maximum_number{}, "nanmax");
    expect_exclusive_is_inclusive_shifted(x, gp::plus{}, "sum");
  }
  // The issue's case, spelled out.
  const auto d = side::put(issue);
  auto out = side::filled_bytes<T>(4, 0xA5);
  gp::exclusive_scan(side::backend(), d, out, gp::maximum_number{});
  const std::vector<T> got = side::get(out);
  EXPECT_TRUE(std::isnan(got[0]) && std::isnan(got[1]));
  EXPECT_EQ(got[2], T(1));
  EXPECT_EQ(got[3], T(1));
}

SIDE_TYPED_TEST(scan, exclusive_without_init_starts_from_the_identity) {
  auto rng = make_rng(44);
  const auto x = random_vector<T>(33'333, rng);
  expect_exclusive_is_inclusive_shifted(x, gp::minimum{}, "min");
  expect_exclusive_is_inclusive_shifted(x, gp::maximum{}, "max");
  static_assert(gp::identity_of<T>(gp::plus{}) == T(0));
  if constexpr (std::numeric_limits<T>::has_infinity) {
    static_assert(gp::identity_of<T>(gp::minimum{}) == std::numeric_limits<T>::infinity());
  } else {
    static_assert(gp::identity_of<T>(gp::minimum{}) == std::numeric_limits<T>::max());
    static_assert(gp::identity_of<T>(gp::maximum_number{}) == std::numeric_limits<T>::lowest());
  }
}
