// Double-precision references for the convolution family, written straight
// from scipy.ndimage's definitions (no flipping tricks, no padding), and the
// comparisons the host and GPU tests share.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/convolve.hpp"
#include "support/named.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

// An image batch packed as count x rows x cols x channels.
struct conv_shape {
  std::size_t count = 1;
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::size_t channels = 1;
  std::size_t size() const { return count * rows * cols * channels; }
};

// The index that index i (any integer) of a line of n reads under `mode`,
// -1 for a zero pixel, by scipy.ndimage's picture of each mode (for a b c d):
// constant 0 0 | a b c d | 0 0, nearest a a | a b c d | d d, wrap c d |
// a b c d | a b, reflect b a | a b c d | d c, mirror c b | a b c d | c b.
inline long long reference_index(long long i, long long n, border mode) {
  const bool inside = i >= 0 && i < n;
  if (mode == border::zero) return inside ? i : -1;
  if (mode == border::replicate) return std::clamp(i, 0LL, n - 1);
  if (mode == border::wrap) return ((i % n) + n) % n;
  if (mode == border::mirror && n == 1) return 0;
  // reflect and mirror: step outwards one reflection at a time (scipy
  // extends that way); mirror does not repeat the edge pixel.
  const long long edge_repeats = mode == border::reflect ? 1 : 0;
  while (i < 0 || i >= n)
    i = i < 0 ? -i - edge_repeats : 2 * (n - 1) + edge_repeats - i;
  return i;
}

// out(y, x) = sum_{i, j} w(i, j) * in(y + s * (i - ci), x + s * (j - cj)),
// s = +1 for a correlation, -1 for a convolution (ci = rows / 2,
// cj = cols / 2); weights with |w| <= DBL_EPSILON are skipped.
template <class T>
std::vector<double> reference_filter(const std::vector<T>& in, conv_shape s, const filter& f,
                                     border mode, bool convolution) {
  std::vector<double> out(s.size(), 0.0);
  const long long ci = static_cast<long long>(f.rows() / 2);
  const long long cj = static_cast<long long>(f.cols() / 2);
  const long long sign = convolution ? -1 : 1;
  const auto at = [&](std::size_t b, long long y, long long x, std::size_t c) {
    return ((b * s.rows + static_cast<std::size_t>(y)) * s.cols + static_cast<std::size_t>(x)) *
               s.channels +
           c;
  };
  for (std::size_t b = 0; b < s.count; ++b) {
    for (long long y = 0; y < static_cast<long long>(s.rows); ++y) {
      for (long long x = 0; x < static_cast<long long>(s.cols); ++x) {
        for (std::size_t c = 0; c < s.channels; ++c) {
          double sum = 0.0;
          for (std::size_t i = 0; i < f.rows(); ++i) {
            for (std::size_t j = 0; j < f.cols(); ++j) {
              const double w = f(i, j);
              if (!(std::fabs(w) > DBL_EPSILON)) continue;
              const long long sy = reference_index(y + sign * (static_cast<long long>(i) - ci),
                                                   static_cast<long long>(s.rows), mode);
              const long long sx = reference_index(x + sign * (static_cast<long long>(j) - cj),
                                                   static_cast<long long>(s.cols), mode);
              if (sy < 0 || sx < 0) continue;
              sum += w * static_cast<double>(in[at(b, sy, sx, c)]);
            }
          }
          out[at(b, y, x, c)] = sum;
        }
      }
    }
  }
  return out;
}

template <class T>
std::vector<double> reference_separable(const std::vector<T>& in, conv_shape s,
                                        const std::vector<double>& row,
                                        const std::vector<double>& column, border mode,
                                        bool convolution) {
  return reference_filter(in, s, filter::outer(column, row), mode, convolution);
}

// Random pixels: floats in [-1, 1), bytes over 0..255.
template <class T>
std::vector<T> random_pixels(std::size_t n, std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    return draw_vector<T>(n, rng, std::uniform_int_distribution<int>(0, 255));
  } else {
    return draw_vector<T>(n, rng, std::uniform_real_distribution<double>(-1.0, 1.0));
  }
}

inline std::vector<double> random_weights(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> w(n);
  for (auto& x : w)
    x = d(rng);
  return w;
}

inline filter random_filter(std::size_t rows, std::size_t cols, std::mt19937_64& rng) {
  return filter(rows, cols, random_weights(rows * cols, rng));
}

// Tolerance of an output: taps * eps(T) * sum |w| |in| <= taps * eps * sum|w|
// for inputs in [-1, 1]; NaN must match NaN, inf must match inf.
template <class T>
::testing::AssertionResult matches_reference(const std::vector<T>& got,
                                             const std::vector<double>& expected,
                                             double weight_abs_sum, std::size_t taps,
                                             const std::string& what) {
  if (got.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << what << ": size " << got.size() << " vs " << expected.size();
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double e = expected[i];
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      double want = std::isnan(e) ? 0.0 : std::min(255.0, std::max(0.0, e));
      if (std::fabs(static_cast<double>(got[i]) - want) > 1.0) {
        return ::testing::AssertionFailure()
               << what << ": element " << i << " is " << int(got[i]) << ", expected " << e;
      }
    } else {
      const double g = static_cast<double>(got[i]);
      if (std::isnan(e) || std::isnan(g) || std::isinf(e) || std::isinf(g)) {
        if ((std::isnan(e) && std::isnan(g)) || e == g) continue;
        return ::testing::AssertionFailure()
               << what << ": element " << i << " is " << g << ", expected " << e;
      }
      const double eps = std::numeric_limits<T>::epsilon();
      const double tol = 4.0 * static_cast<double>(taps + 2) * eps * (weight_abs_sum + 1e-30);
      if (std::fabs(g - e) > tol) {
        return ::testing::AssertionFailure() << what << ": element " << i << " is " << g
                                             << ", expected " << e << " (tolerance " << tol << ")";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

inline double abs_sum(std::span<const double> w) {
  double s = 0;
  for (double x : w)
    s += std::fabs(x);
  return s;
}

inline const char* border_name(border b) {
  // In the order of the enum.
  constexpr const char* names[] = {"zero", "replicate", "reflect", "mirror", "wrap"};
  return name_in(names, b);
}

inline constexpr border all_borders[] = {border::zero, border::replicate, border::reflect,
                                         border::mirror, border::wrap};

}  // namespace gpuprim::test
