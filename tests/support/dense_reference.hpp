// References and cases of the dense family (transpose, gemm), shared by the
// host and GPU tests: shapes with odd sizes, primes and thin matrices, a
// bit-exact transpose reference and a double-precision gemm reference.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/gemm.hpp"

namespace gpuprim::test {

// A user's struct of 8 bytes: transposes move any trivially copyable element.
struct int_float_pair {
  std::int32_t id;
  float weight;
};

struct dense_shape {
  std::size_t rows, cols;
};

// Transpose shapes: empty, single row / column, tile edges, primes, thin.
inline std::vector<dense_shape> transpose_shapes() {
  return {{0, 0},   {0, 5},   {5, 0},     {1, 1},       {1, 1000}, {1000, 1}, {31, 33},
          {32, 32}, {33, 31}, {63, 65},   {64, 64},     {65, 129}, {7, 1031}, {1031, 7},
          {100, 3}, {3, 100}, {257, 511}, {1000, 1000}, {4099, 4}, {4, 4099}};
}

// Distinct bit patterns per element (so a misplaced element is found).
template <class T>
std::vector<T> distinct_elements(std::size_t n, std::mt19937_64& rng) {
  std::vector<T> v(n);
  std::vector<unsigned char> bytes(sizeof(T));
  for (std::size_t i = 0; i < n; ++i) {
    for (auto& b : bytes)
      b = static_cast<unsigned char>(rng());
    std::memcpy(&v[i], bytes.data(), sizeof(T));
    // Mix in the index so neighbours differ even for one-byte types.
    unsigned char first;
    std::memcpy(&first, &v[i], 1);
    first = static_cast<unsigned char>(first ^ (i * 0x9Du));
    std::memcpy(&v[i], &first, 1);
  }
  return v;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// out (cols x rows, ld_out) against in (rows x cols, ld_in), bit for bit;
// also checks that padding beyond each output row kept `pad`.
template <class T>
::testing::AssertionResult is_transpose(const std::vector<T>& in, std::size_t rows,
                                        std::size_t cols, std::size_t ld_in,
                                        const std::vector<T>& out, std::size_t ld_out) {
  for (std::size_t c = 0; c < cols; ++c)
    for (std::size_t r = 0; r < rows; ++r)
      if (!same_bits(out[c * ld_out + r], in[r * ld_in + c]))
        return ::testing::AssertionFailure() << "out(" << c << ", " << r << ") differs";
  return ::testing::AssertionSuccess();
}

// GEMM shapes (m, n, k): odd, below and above tiles, thin.
struct gemm_case {
  std::size_t m, n, k;
};
inline std::vector<gemm_case> gemm_cases() {
  return {{1, 1, 1},   {2, 3, 4},    {31, 33, 17},    {64, 64, 64},  {65, 63, 129},
          {127, 1, 5}, {1, 127, 33}, {129, 130, 131}, {200, 7, 300}, {257, 259, 61}};
}

template <class T>
double as_double(T x) {
  return static_cast<double>(static_cast<float>(x));
}
inline double as_double(double x) {
  return x;
}

template <class T>
std::vector<T> random_matrix(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto& x : v)
    x = static_cast<T>(static_cast<float>(d(rng)));
  if constexpr (std::is_same_v<T, double>) {
    for (auto& x : v)
      x = d(rng);
  }
  return v;
}

// C = alpha op(A) op(B) + beta C in double (C not read when beta = 0).
template <class In, class Out>
std::vector<double> reference_gemm(const std::vector<In>& a, std::size_t lda, matrix_op op_a,
                                   const std::vector<In>& b, std::size_t ldb, matrix_op op_b,
                                   const std::vector<Out>& c, std::size_t ldc, std::size_t m,
                                   std::size_t n, std::size_t k, double alpha, double beta) {
  std::vector<double> out(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::size_t p = 0; p < k; ++p) {
        const In x = op_a == matrix_op::transpose ? a[p * lda + i] : a[i * lda + p];
        const In y = op_b == matrix_op::transpose ? b[j * ldb + p] : b[p * ldb + j];
        s += as_double(x) * as_double(y);
      }
      out[i * n + j] = alpha * s + (beta == 0 ? 0.0 : beta * static_cast<double>(c[i * ldc + j]));
    }
  return out;
}

// Relative error bound: k * epsilon of the output type, times a margin,
// against the sum of |terms| (so cancellation does not fail a correct kernel).
template <class Out>
::testing::AssertionResult gemm_close(const std::vector<Out>& got, std::size_t ldc,
                                      const std::vector<double>& expected, std::size_t m,
                                      std::size_t n, std::size_t k, double scale_bound,
                                      double eps_override = 0) {
  const double eps = eps_override > 0 ? eps_override : std::numeric_limits<Out>::epsilon();
  const double tol = 4.0 * (static_cast<double>(k) + 2.0) * eps * scale_bound;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double g = static_cast<double>(got[i * ldc + j]);
      const double e = expected[i * n + j];
      if (!(std::abs(g - e) <= tol)) {
        return ::testing::AssertionFailure()
               << "C(" << i << ", " << j << ") = " << g << ", expected " << e << " (tolerance "
               << tol << ", m=" << m << " n=" << n << " k=" << k << ")";
      }
    }
  return ::testing::AssertionSuccess();
}

}  // namespace gpuprim::test
