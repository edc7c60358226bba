// References for the sparse family: random CSR matrices, SpMV in double,
// and a direct dense solve (Gaussian elimination with partial pivoting, in
// double) to check the iterative solvers against.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gpuprim/sparse.hpp"

namespace gpuprim::test {

// rows x cols with row lengths uniform in [0, 2 * mean] (some rows empty),
// and every `long_every`-th row (when not 0) `long_length` long: uneven
// rows for the load-balanced kernel. Columns random (sorted, unique),
// values in [-1, 1).
template <class T, class I>
csr_matrix<T, I> random_csr(std::size_t rows, std::size_t cols, std::size_t mean,
                            std::mt19937_64& rng, std::size_t long_every = 0,
                            std::size_t long_length = 0) {
  std::vector<I> offsets(rows + 1, 0);
  std::uniform_int_distribution<std::size_t> len(0, 2 * mean);
  for (std::size_t r = 0; r < rows; ++r) {
    std::size_t l = cols ? std::min(len(rng), cols) : 0;
    if (long_every && r % long_every == 0) l = std::min(long_length, cols);
    offsets[r + 1] = offsets[r] + static_cast<I>(l);
  }
  const std::size_t nnz = static_cast<std::size_t>(offsets[rows]);
  std::vector<I> c(nnz);
  std::vector<T> v(nnz);
  std::uniform_int_distribution<std::size_t> col(0, cols ? cols - 1 : 0);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t b = static_cast<std::size_t>(offsets[r]);
    const std::size_t l = static_cast<std::size_t>(offsets[r + 1]) - b;
    // Distinct columns: a random start and stride walk when the row is long.
    const std::size_t start = col(rng);
    for (std::size_t k = 0; k < l; ++k)
      c[b + k] = static_cast<I>((start + k * 7919) % cols);
    std::sort(c.begin() + b, c.begin() + b + l);
    for (std::size_t k = 0; k < l; ++k)
      v[b + k] = static_cast<T>(val(rng));
  }
  return csr_matrix<T, I>(rows, cols, std::move(offsets), std::move(c), std::move(v));
}

// alpha * A x + beta * y in double (beta == 0: y is not read).
template <class T, class I>
std::vector<double> reference_spmv(double alpha, const csr_matrix<T, I>& A, const std::vector<T>& x,
                                   double beta, const std::vector<T>& y) {
  std::vector<double> out(A.rows());
  for (std::size_t r = 0; r < A.rows(); ++r) {
    double s = 0;
    for (I k = A.row_offsets()[r]; k < A.row_offsets()[r + 1]; ++k)
      s += double(A.values()[k]) * double(x[A.col_indices()[k]]);
    out[r] = alpha * s + (beta == 0 ? 0.0 : beta * double(y[r]));
  }
  return out;
}

// The sum of |a_rk x_k| per row: the scale of the rounding error of row r.
template <class T, class I>
std::vector<double> spmv_error_scale(const csr_matrix<T, I>& A, const std::vector<T>& x) {
  std::vector<double> out(A.rows());
  for (std::size_t r = 0; r < A.rows(); ++r) {
    double s = 0;
    for (I k = A.row_offsets()[r]; k < A.row_offsets()[r + 1]; ++k)
      s += std::abs(double(A.values()[k]) * double(x[A.col_indices()[k]]));
    out[r] = s;
  }
  return out;
}

template <class T, class I>
std::vector<double> to_dense(const csr_matrix<T, I>& A) {
  std::vector<double> d(A.rows() * A.cols(), 0.0);
  for (std::size_t r = 0; r < A.rows(); ++r)
    for (I k = A.row_offsets()[r]; k < A.row_offsets()[r + 1]; ++k)
      d[r * A.cols() + static_cast<std::size_t>(A.col_indices()[k])] += double(A.values()[k]);
  return d;
}

// Solves the n x n row-major system a x = b (copies) by Gaussian
// elimination with partial pivoting.
inline std::vector<double> dense_solve(std::vector<double> a, std::vector<double> b,
                                       std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::abs(a[i * n + k]) > std::abs(a[p * n + k])) p = i;
    if (p != k) {
      for (std::size_t j = 0; j < n; ++j)
        std::swap(a[k * n + j], a[p * n + j]);
      std::swap(b[k], b[p]);
    }
    for (std::size_t i = k + 1; i < n; ++i) {
      const double f = a[i * n + k] / a[k * n + k];
      if (f == 0) continue;
      for (std::size_t j = k; j < n; ++j)
        a[i * n + j] -= f * a[k * n + j];
      b[i] -= f * b[k];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t j = i + 1; j < n; ++j)
      s -= a[i * n + j] * x[j];
    x[i] = s / a[i * n + i];
  }
  return x;
}

// max_i |x_i - ref_i| / max_i |ref_i|.
template <class T>
double relative_error(const std::vector<T>& x, const std::vector<double>& ref) {
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    err = std::max(err, std::abs(double(x[i]) - ref[i]));
    scale = std::max(scale, std::abs(ref[i]));
    if (std::isnan(double(x[i]))) return INFINITY;
  }
  return scale ? err / scale : err;
}

}  // namespace gpuprim::test
