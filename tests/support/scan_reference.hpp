// Sequential references for the scan family.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

namespace gpuprim::test {

// Inclusive scan with `op`, accumulated in Acc (double for float references).
template <class Acc, class T, class Op>
std::vector<Acc> reference_inclusive_scan(std::span<const T> x, Op op) {
  std::vector<Acc> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    out[i] =
        i == 0 ? static_cast<Acc>(x[0]) : static_cast<Acc>(op(out[i - 1], static_cast<Acc>(x[i])));
  }
  return out;
}

template <class Acc, class T, class Op>
std::vector<Acc> reference_exclusive_scan(std::span<const T> x, Acc init, Op op) {
  std::vector<Acc> out(x.size());
  Acc acc = init;
  for (std::size_t i = 0; i < x.size(); ++i) {
    out[i] = acc;
    acc = static_cast<Acc>(op(acc, static_cast<Acc>(x[i])));
  }
  return out;
}

// Largest |prefix| magnitude bound used to scale float tolerances: for
// values in [-1, 1), the error of a prefix of length i is at most about
// i * eps * max|x|.
template <class T, class Ref>
void expect_scan_near(std::span<const T> got, const std::vector<Ref>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      const double tol = 4.0 * static_cast<double>(i + 2) * std::numeric_limits<T>::epsilon();
      ASSERT_NEAR(static_cast<double>(got[i]), static_cast<double>(want[i]), tol)
          << what << " at " << i << " of " << got.size();
    } else {
      ASSERT_EQ(got[i], static_cast<T>(want[i])) << what << " at " << i << " of " << got.size();
    }
  }
}

// NaN in running minima / maxima, written out without the library's
// operators: propagate (numpy.minimum.accumulate) or skip (numpy.fmin.accumulate).
template <class T>
std::vector<T> nan_rule_reference(const std::vector<T>& x, bool max, bool skip_nan,
                                  std::optional<T> init) {
  std::vector<T> out(x.size());
  T acc = init.value_or(std::numeric_limits<T>::quiet_NaN());
  bool have = init.has_value();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (init) out[i] = acc;
    const T v = x[i];
    if (!have) {
      acc = v;
      have = true;
    } else if (std::isnan(acc)) {
      acc = skip_nan ? v : acc;
    } else if (std::isnan(v)) {
      acc = skip_nan ? acc : v;
    } else {
      acc = max ? (v > acc ? v : acc) : (v < acc ? v : acc);
    }
    if (!init) out[i] = acc;
  }
  return out;
}

template <class T>
void expect_same_with_nan(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      if (!std::isnan(got[i])) {
        ADD_FAILURE() << what << " at " << i << ": " << got[i] << ", expected NaN";
        return;
      }
    } else if (got[i] != want[i]) {
      ADD_FAILURE() << what << " at " << i << ": " << got[i] << ", expected " << want[i];
      return;
    }
  }
}

// Leading NaNs, then numbers, and NaNs from position `first_nan` on at a few
// places (far from the start, so the rule must cross the chunks of threads).
template <class T>
std::vector<T> values_with_nans(std::size_t n, std::size_t first_nan) {
  std::vector<T> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = static_cast<T>((i * 7919) % 1000) / T(8) - T(60);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  x[0] = x[1] = nan;
  for (std::size_t i = first_nan; i < n; i += n / 5 + 1)
    x[i] = nan;
  return x;
}

}  // namespace gpuprim::test
