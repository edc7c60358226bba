// The NaN rules of the reduction family, one body for both backends: the
// propagating operators (gp::minimum / gp::maximum, min_element and
// max_element by default) give NaN / the first NaN's index as NumPy's min
// and argmin do; the skipping ones (gp::minimum_number, nan_rule::skip,
// gp::nan_to_zero) give numpy.nanmin, nanargmin and nansum.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpuprim/reduce.hpp"
#include "gpuprim/scan.hpp"
#include "support/sides.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

// What NumPy answers for x, computed one element at a time.
template <class T>
struct numpy_answers {
  bool any_nan = false;
  std::uint64_t first_nan = 0;
  value_index<T> nan_min{std::numeric_limits<T>::quiet_NaN(), 0};  // nanargmin (NaN: all NaN)
  value_index<T> nan_max{std::numeric_limits<T>::quiet_NaN(), 0};
  double nansum = 0;

  explicit numpy_answers(const std::vector<T>& x) {
    bool have_number = false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (std::isnan(x[i])) {
        if (!any_nan) first_nan = i;
        any_nan = true;
        continue;
      }
      nansum += x[i];
      if (!have_number || x[i] < nan_min.value) nan_min = {x[i], i};
      if (!have_number || nan_max.value < x[i]) nan_max = {x[i], i};
      have_number = true;
    }
  }
};

template <class Side, class T>
void expect_numpy_nan_rules(const std::vector<T>& x, const char* what) {
  SCOPED_TRACE(what);
  const auto backend = Side::backend();
  const auto d = Side::put(x);
  const numpy_answers<T> want(x);
  const T inf = std::numeric_limits<T>::infinity();

  // numpy.min / numpy.max and numpy.argmin / argmax: NaN wins.
  const T lo = reduce(backend, d, inf, minimum{});
  const T hi = reduce(backend, d, -inf, maximum{});
  const auto lo_at = min_element(backend, d);
  const auto hi_at = max_element(backend, d);
  if (want.any_nan) {
    EXPECT_TRUE(std::isnan(lo));
    EXPECT_TRUE(std::isnan(hi));
    EXPECT_TRUE(std::isnan(lo_at.value));
    EXPECT_TRUE(std::isnan(hi_at.value));
    EXPECT_EQ(lo_at.index, want.first_nan);
    EXPECT_EQ(hi_at.index, want.first_nan);
  } else {
    EXPECT_EQ(lo, want.nan_min.value);
    EXPECT_EQ(hi, want.nan_max.value);
    EXPECT_EQ(lo_at, want.nan_min);
    EXPECT_EQ(hi_at, want.nan_max);
  }

  // numpy.nanmin / nanmax / nanargmin / nanargmax: NaN is skipped; all NaN
  // gives NaN at index 0.
  const T nan_lo = reduce(backend, d, std::numeric_limits<T>::quiet_NaN(), minimum_number{});
  const T nan_hi = reduce(backend, d, std::numeric_limits<T>::quiet_NaN(), maximum_number{});
  const auto nan_lo_at = min_element(backend, d, nan_rule::skip);
  const auto nan_hi_at = max_element(backend, d, nan_rule::skip);
  if (std::isnan(want.nan_min.value)) {
    EXPECT_TRUE(std::isnan(nan_lo));
    EXPECT_TRUE(std::isnan(nan_hi));
    EXPECT_TRUE(std::isnan(nan_lo_at.value));
    EXPECT_EQ(nan_lo_at.index, 0u);
    EXPECT_EQ(nan_hi_at.index, 0u);
  } else {
    EXPECT_EQ(nan_lo, want.nan_min.value);
    EXPECT_EQ(nan_hi, want.nan_max.value);
    EXPECT_EQ(nan_lo_at, want.nan_min);
    EXPECT_EQ(nan_hi_at, want.nan_max);
  }

  // numpy.nansum, accumulated in double.
  const double sum = transform_reduce(backend, d, 0.0, plus{}, nan_to_zero{});
  EXPECT_NEAR(sum, want.nansum, 1e-12 * (1.0 + std::abs(want.nansum)) * double(x.size()));
}

template <class Side, class T>
void nan_rule_cases() {
  auto rng = make_rng(41);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (std::size_t n :
       {std::size_t{1}, std::size_t{33}, std::size_t{1025}, (std::size_t{1} << 20) + 7}) {
    std::vector<T> x = random_vector<T>(n, rng);
    expect_numpy_nan_rules<Side>(x, "no NaN");
    // NaN first, in the middle (twice), last.
    for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      std::vector<T> y = x;
      y[at] = nan;
      if (at == n / 2 && n > 4) y[n - 2] = nan;
      expect_numpy_nan_rules<Side>(y, "one NaN");
    }
    expect_numpy_nan_rules<Side>(std::vector<T>(n, nan), "all NaN");
    // NaN everywhere but one number.
    std::vector<T> z(n, nan);
    z[n / 3] = T(-2.5);
    expect_numpy_nan_rules<Side>(z, "one number");
  }
}

// An inclusive min scan is NaN from the first NaN on (numpy.minimum.accumulate).
template <class Side, class T>
void nan_propagates_through_min_scan() {
  std::vector<T> x(5000, T(3));
  x[100] = T(-1);
  x[2000] = std::numeric_limits<T>::quiet_NaN();
  x[3000] = T(-7);
  const auto d = Side::put(x);
  auto out = Side::put(std::vector<T>(x.size(), T(0)));
  inclusive_scan(Side::backend(), d, out, minimum{});
  const std::vector<T> got = Side::get(out);
  EXPECT_EQ(got[99], T(3));
  EXPECT_EQ(got[100], T(-1));
  EXPECT_EQ(got[1999], T(-1));
  for (std::size_t i = 2000; i < got.size(); ++i)
    ASSERT_TRUE(std::isnan(got[i])) << i;
}

// For integers the two rules are one function (and the GPU runs the plain
// precompiled kernels for them).
template <class Side>
void integer_nan_rules_are_the_plain_ones() {
  const std::vector<std::int32_t> x{5, -3, 9, -3, 7};
  const auto d = Side::put(x);
  EXPECT_EQ(reduce(Side::backend(), d, std::int32_t{100}, minimum_number{}), -3);
  EXPECT_EQ(reduce(Side::backend(), d, std::int32_t{-100}, maximum_number{}), 9);
  EXPECT_EQ(min_element(Side::backend(), d, nan_rule::skip), (value_index<std::int32_t>{-3, 1}));
  EXPECT_EQ(max_element(Side::backend(), d, nan_rule::skip), (value_index<std::int32_t>{9, 2}));
}

}  // namespace gpuprim::test
