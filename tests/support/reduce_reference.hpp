// Sequential references for the reduction family, and the custom types the
// tests use to prove that the generic paths keep input order.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/value_index.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

// Sum in double for floats (the reference), in T's own wrapping arithmetic
// for integers (exact).
template <class T>
auto reference_sum(std::span<const T> x) {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, double, T>;
  Acc s{};
  for (const T& v : x)
    s = static_cast<Acc>(s + static_cast<Acc>(v));
  return s;
}

template <class T>
double max_abs(std::span<const T> x) {
  double m = 0;
  for (const T& v : x)
    m = std::max(m, std::abs(static_cast<double>(v)));
  return m;
}

// `got` is the sum of x: exactly for integers, within sum_tolerance for
// floats.
template <class T>
void expect_sum(T got, std::span<const T> x, const std::string& where) {
  const auto want = reference_sum<T>(x);
  if constexpr (std::is_floating_point_v<T>) {
    EXPECT_NEAR(got, want, sum_tolerance<T>(x.size(), max_abs<T>(x))) << where;
  } else {
    EXPECT_EQ(got, want) << where;
  }
}

// First smallest / largest, NaNs skipped unless all are NaN.
template <class T, bool Max>
value_index<T> reference_extreme(std::span<const T> x) {
  value_index<T> best{T{}, 0};
  bool have = false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const bool nan = !(x[i] == x[i]);
    if (!have) {
      best = {x[i], i};
      have = true;
      continue;
    }
    const bool best_nan = !(best.value == best.value);
    if (best_nan && !nan) {
      best = {x[i], i};
    } else if (!nan && (Max ? best.value < x[i] : x[i] < best.value)) {
      best = {x[i], i};
    }
  }
  return best;
}

// 2x2 matrices of wrapping 32-bit integers: an associative, non-commutative
// product, so any reordering of operands shows up in the result.
struct mat2 {
  std::uint32_t a, b, c, d;
  friend bool operator==(const mat2&, const mat2&) = default;
};

struct mat2_product {
  GPUPRIM_HD mat2 operator()(const mat2& x, const mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
            x.c * y.b + x.d * y.d};
  }
};

inline mat2 mat2_identity() {
  return {1, 0, 0, 1};
}

// n matrices of uniformly random entries.
inline std::vector<mat2> random_mat2s(std::size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::uint32_t> d;
  std::vector<mat2> x(n);
  for (auto& m : x)
    m = {d(rng), d(rng), d(rng), d(rng)};
  return x;
}

// A struct with a field of each size: exercises the word-wise shuffles.
struct stats {
  double sum;
  std::int32_t count;
  float max;
  friend bool operator==(const stats&, const stats&) = default;
};

struct stats_merge {
  GPUPRIM_HD stats operator()(const stats& x, const stats& y) const {
    return {x.sum + y.sum, x.count + y.count, x.max < y.max ? y.max : x.max};
  }
};

// One value as stats: its sum, a count of 1 and its max.
struct stats_of {
  GPUPRIM_HD stats operator()(float v) const { return {double(v), 1, v}; }
};

// 0, 1, ..., period - 1, 0, 1, ... as floats: n of them.
inline std::vector<float> float_ramp(std::size_t n, std::size_t period) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = float(i % period);
  return x;
}

}  // namespace gpuprim::test
