// CPU backend of the sparse matrix-vector product: OpenMP threads over
// contiguous row ranges of equal work.
//
// Work of a row = its entries + 1 (the row's own read of the offsets and
// write of y, so that long runs of empty rows are shared out too). Thread t
// starts at the first row r with offsets[r] + r >= t * (nnz + rows) /
// threads, found by binary search (offsets[r] + r increases strictly), so a
// power-law matrix's few long rows do not land on one thread the way an
// even split of rows would put them.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gpuprim/core/backend.hpp"

namespace gpuprim::host_impl {

// The first row of part `part` of `parts` equal shares of rows + nnz.
template <class I>
std::size_t balanced_row_start(const I* offsets, std::size_t rows, std::size_t part,
                               std::size_t parts) {
  const std::uint64_t total = static_cast<std::uint64_t>(offsets[rows]) + rows;
  const std::uint64_t target = total * part / parts;
  std::size_t lo = 0, hi = rows;  // first r in [0, rows] with offsets[r] + r >= target
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::uint64_t>(offsets[mid]) + mid < target) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

inline int spmv_thread_count(host_backend backend, std::size_t work) {
  const int requested = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  // Below ~32k entries per thread the fork costs more than it saves.
  const std::size_t useful = std::max<std::size_t>(1, work / (std::size_t{1} << 15));
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(requested), useful));
}

// One row's sum of products, in entry order with one accumulator: the
// order SciPy's csr_matvec adds in, so the two agree to the last bit.
template <class T, class I>
T row_dot(const I* cols, const T* values, std::size_t begin, std::size_t end, const T* x) {
  T sum = 0;
  for (std::size_t k = begin; k < end; ++k)
    sum += values[k] * x[cols[k]];
  return sum;
}

// y[first, last) = alpha * A x + beta * y; beta == 0: y is only written.
// (The beta test is out of the row loop; each row offset is read once.)
template <class T, class I>
void spmv_rows(T alpha, std::size_t first, std::size_t last, const I* offsets, const I* cols,
               const T* values, const T* x, T beta, T* y) {
  std::size_t begin = static_cast<std::size_t>(offsets[first]);
  if (beta == T(0)) {
    for (std::size_t r = first; r < last; ++r) {
      const std::size_t end = static_cast<std::size_t>(offsets[r + 1]);
      y[r] = alpha * row_dot(cols, values, begin, end, x);
      begin = end;
    }
  } else {
    for (std::size_t r = first; r < last; ++r) {
      const std::size_t end = static_cast<std::size_t>(offsets[r + 1]);
      y[r] = alpha * row_dot(cols, values, begin, end, x) + beta * y[r];
      begin = end;
    }
  }
}

template <class T, class I>
void spmv(host_backend backend, T alpha, std::size_t rows, const I* offsets, const I* cols,
          const T* values, const T* x, T beta, T* y) {
  if (rows == 0) return;
  const int threads = spmv_thread_count(backend, static_cast<std::size_t>(offsets[rows]) + rows);
  if (threads <= 1) {
    spmv_rows(alpha, 0, rows, offsets, cols, values, x, beta, y);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const std::size_t parts = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t first = balanced_row_start(offsets, rows, t, parts);
    const std::size_t last =
        t + 1 == parts ? rows : balanced_row_start(offsets, rows, t + 1, parts);
    spmv_rows(alpha, first, last, offsets, cols, values, x, beta, y);
  }
}

}  // namespace gpuprim::host_impl
