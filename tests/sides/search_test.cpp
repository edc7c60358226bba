// The vectorized binary search (gpuprim/search.hpp) on each backend against
// std::lower_bound / std::upper_bound (the GPU's precompiled instances:
// gp::less, gp::greater, gp::nan_last_less; 64- and 32-bit indices).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpuprim/search.hpp"
#include "support/expect_message.hpp"
#include "support/order_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

namespace {

template <class T, class Comp>
void expect_bounds(const std::vector<T>& sorted, const std::vector<T>& queries, Comp comp,
                   const char* what) {
  const auto s = side::put(sorted);
  const auto q = side::put(queries);
  auto lo = side::filled_bytes<std::int64_t>(queries.size(), 0xA5);
  auto hi = side::filled_bytes<std::int64_t>(queries.size(), 0xA5);
  gp::lower_bound(side::backend(), s, q, lo, comp);
  gp::upper_bound(side::backend(), s, q, hi, comp);
  const auto l = side::get(lo), h = side::get(hi);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const auto want_l = std::lower_bound(sorted.begin(), sorted.end(), queries[i], comp);
    const auto want_h = std::upper_bound(sorted.begin(), sorted.end(), queries[i], comp);
    ASSERT_EQ(l[i], want_l - sorted.begin()) << what << " n " << sorted.size() << " query " << i;
    ASSERT_EQ(h[i], want_h - sorted.begin()) << what << " n " << sorted.size() << " query " << i;
  }
}

}  // namespace

SIDE_TYPED_SUITE(search, side_value_types);

SIDE_TYPED_TEST(search, bounds_of_many_queries_with_ties_and_misses) {
  auto rng = make_rng(45);
  for (std::size_t n : standard_sizes()) {
    // Many ties: values 0 .. n/8; queries on and between them and past both ends.
    auto sorted = tied_vector<T>(n, n / 8 + 1, rng);
    std::sort(sorted.begin(), sorted.end());
    auto queries = tied_vector<T>(std::min<std::size_t>(n + 3, 20000), n / 8 + 3, rng);
    if constexpr (std::is_signed_v<T>) queries.push_back(T(-1));
    queries.push_back(std::numeric_limits<T>::max());
    expect_bounds(sorted, queries, gp::less{}, "less");
    // Distinct random values, and the same descending by gp::greater.
    auto wide = random_vector<T>(n, rng);
    std::sort(wide.begin(), wide.end());
    auto wide_queries = random_vector<T>(1000, rng);
    for (std::size_t i = 0; i < n && i < 200; ++i)
      wide_queries.push_back(wide[i * 7 % n]);
    expect_bounds(wide, wide_queries, gp::less{}, "less, wide");
    std::reverse(wide.begin(), wide.end());
    expect_bounds(wide, wide_queries, gp::greater{}, "greater");
  }
}

SIDE_TYPED_TEST(search, no_queries_and_an_empty_table) {
  const auto s = side::put(std::vector<T>{T(1), T(2), T(2), T(5)});
  const auto none = side::put(std::vector<T>{});
  auto out = side::filled_bytes<std::int64_t>(0, 0);
  gp::lower_bound(side::backend(), s, none, out);
  gp::upper_bound(side::backend(), s, none, out);
  const auto q = side::put(std::vector<T>{T(0), T(2), T(9)});
  auto o = side::filled_bytes<std::int64_t>(3, 0xA5);
  gp::upper_bound(side::backend(), none, q, o);
  EXPECT_EQ(side::get(o), (std::vector<std::int64_t>{0, 0, 0}));
  // 32-bit indices
  auto o32 = side::filled_bytes<std::int32_t>(3, 0xA5);
  gp::lower_bound(side::backend(), s, q, o32);
  EXPECT_EQ(side::get(o32), (std::vector<std::int32_t>{0, 1, 4}));
  gp::upper_bound(side::backend(), s, q, o32);
  EXPECT_EQ(side::get(o32), (std::vector<std::int32_t>{0, 3, 4}));
}

SIDE_TYPED_SUITE(search_nan, side_float_types);

SIDE_TYPED_TEST(search_nan, nan_sorts_last_as_numpy) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  const std::vector<T> sorted = {-inf, T(-1), T(0), T(0), T(2), inf, nan, nan};
  const std::vector<T> queries = {nan, inf, T(0), -T(0), T(3), -inf, T(-2)};
  expect_bounds(sorted, queries, gp::nan_last_less{}, "nan_last_less");
  const auto s = side::put(sorted);
  const auto q = side::put(queries);
  auto lo = side::filled_bytes<std::int64_t>(queries.size(), 0);
  auto hi = side::filled_bytes<std::int64_t>(queries.size(), 0);
  gp::lower_bound(side::backend(), s, q, lo, gp::nan_last_less{});
  gp::upper_bound(side::backend(), s, q, hi, gp::nan_last_less{});
  // numpy.searchsorted's answers for this table
  EXPECT_EQ(side::get(lo), (std::vector<std::int64_t>{6, 5, 2, 2, 5, 0, 1}));
  EXPECT_EQ(side::get(hi), (std::vector<std::int64_t>{8, 6, 4, 4, 5, 1, 1}));
}

SIDE_TEST(search, refuses_bad_outputs) {
  const auto s = side::put(std::vector<float>(300, 1.0f));
  const auto q = side::put(std::vector<float>{0.5f, 2.0f});
  auto short_out = side::filled_bytes<std::int64_t>(1, 0);
  expect_invalid_argument([&] { gp::lower_bound(side::backend(), s, q, short_out); },
                          "the queries and the output differ in length (2 and 1 elements)");
}

#if !GPUPRIM_TEST_ON_CUDA
// (An 8-bit index output is not precompiled for the GPU.)
TEST(host_search, refuses_an_index_type_too_narrow) {
  const std::vector<float> s(300, 1.0f);
  const std::vector<float> q = {0.5f, 2.0f};
  std::vector<std::int8_t> narrow(2);
  expect_invalid_argument([&] { gp::upper_bound(gp::host, s, q, narrow); },
                          "8-bit integers cannot hold the index 300");
}

TEST(host_search, first_unsorted_finds_the_first_descent) {
  std::vector<double> x(100000);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<double>(i / 3);
  EXPECT_EQ(gp::first_unsorted(gp::host, x), x.size());
  x[77777] = -1;
  x[90000] = -1;
  EXPECT_EQ(gp::first_unsorted(gp::host, x), 77776u);
  EXPECT_EQ(gp::first_unsorted(gp::host, std::vector<int>{}), 0u);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(gp::first_unsorted(gp::host, std::vector<double>{1, 2, nan, nan}, gp::nan_last_less{}),
            4u);
  EXPECT_EQ(gp::first_unsorted(gp::host, std::vector<double>{1, nan, 2}, gp::nan_last_less{}), 1u);
}
#endif
