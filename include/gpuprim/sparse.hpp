// Sparse matrices in CSR form and the sparse matrix-vector product.
//
//   gp::csr_matrix<double, int> A = gp::coo_to_csr<double, int>(3, 3, rows, cols, vals);
//   gp::spmv(gp::host, 1.0, A.view(), std::span(x), 0.0, std::span(y));   // y = A x
//   gp::device_csr_matrix<float, int> dA = gp::to_device(A32);
//   gp::spmv(gp::cuda, 2.0f, dA.view(), d_x, 1.0f, d_y);                  // y = 2 A x + y
//
// Semantics, for every backend:
//  - A CSR matrix of rows x cols has rows + 1 non-decreasing row offsets
//    (offsets[0] == 0, offsets[rows] == nnz), nnz column indices in
//    [0, cols) and nnz values; row r holds the entries [offsets[r],
//    offsets[r + 1]). Index types are int32 or int64, values float or double.
//    Columns within a row need not be sorted and may repeat (repeats add);
//    coo_to_csr produces sorted rows without repeats.
//  - csr_matrix (host) and device_csr_matrix (GPU) own their arrays; the
//    constructors check the structure and throw std::invalid_argument naming
//    the first bad row. csr_view / device_csr_view are unchecked views.
//  - spmv: y = alpha * A * x + beta * y, accumulated in T, in each row's
//    storage order. beta == 0 means y is only written (as in BLAS: NaNs in
//    the old y do not propagate). x.size() must be cols and y.size() rows
//    (std::invalid_argument otherwise, before anything is written); x and y
//    must not overlap.
//  - The GPU kernel is chosen per matrix from its row-length statistics
//    (choose_spmv_kernel, documented there), or forced with the last
//    argument. The statistics are computed once when a matrix is
//    transferred (device_csr_matrix keeps them); a device_csr_view without
//    them costs one pass over the offsets and a synchronization per call.
//  - device_csr_matrix::prepare_spmv analyses the columns once (as
//    cusparseSpMV_preprocess does for cuSPARSE): which are hottest, so that
//    spmv can keep their x in shared memory (spmv_kernel::hot_columns,
//    chosen automatically where choose_spmv_kernel's rule says it pays).
//    It costs a copy of the column indices in device memory. Matrices and
//    views without it behave as before.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/sparse/csr.hpp"
#include "gpuprim/detail/sparse/spmv.hpp"
#include "gpuprim/host/spmv.hpp"

namespace gpuprim {

// The index and value concepts (sparse_index, sparse_value), the row
// statistics and the unchecked views (csr_view, device_csr_view) are in
// gpuprim/detail/sparse/csr.hpp; the GPU kernel choice (spmv_kernel,
// spmv_choice, choose_spmv_kernel) in gpuprim/detail/sparse/spmv.hpp.

namespace detail::sparse {

// What the host and the device CSR matrix share: the shape and the three
// arrays (row offsets, column indices, values), in IndexArray/ValueArray.
template <class T, class I, class IndexArray, class ValueArray>
class csr_arrays {
  static_assert(sparse_value<T> && sparse_index<I>,
                "gpuprim::csr_matrix<T, I> and device_csr_matrix<T, I>: T is float or double, I "
                "is int32 or int64");

 public:
  using value_type = T;
  using index_type = I;

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  std::size_t nnz() const { return values_.size(); }

 protected:
  csr_arrays() = default;
  csr_arrays(std::size_t rows, std::size_t cols, IndexArray row_offsets, IndexArray col_indices,
             ValueArray values)
      : rows_(rows),
        cols_(cols),
        offsets_(std::move(row_offsets)),
        col_indices_(std::move(col_indices)),
        values_(std::move(values)) {}

  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
  IndexArray offsets_;
  IndexArray col_indices_;
  ValueArray values_;
};

}  // namespace detail::sparse

// A CSR matrix in host memory: owns its arrays; the constructor checks them.
template <class T, class I>
class csr_matrix : public detail::sparse::csr_arrays<T, I, std::vector<I>, std::vector<T>> {
  using base = detail::sparse::csr_arrays<T, I, std::vector<I>, std::vector<T>>;

 public:
  // The empty 0 x 0 matrix.
  csr_matrix() : base(0, 0, std::vector<I>(1, 0), {}, {}) {}
  // An all-zero rows x cols matrix.
  csr_matrix(std::size_t rows, std::size_t cols)
      : base(rows, cols, std::vector<I>(rows + 1, 0), {}, {}) {}
  csr_matrix(std::size_t rows, std::size_t cols, std::vector<I> row_offsets,
             std::vector<I> col_indices, std::vector<T> values)
      : base(rows, cols, std::move(row_offsets), std::move(col_indices), std::move(values)) {
    detail::sparse::check_csr<I>("csr_matrix", this->rows_, this->cols_, this->offsets_,
                                 this->col_indices_, this->values_.size());
  }

  const std::vector<I>& row_offsets() const { return this->offsets_; }
  const std::vector<I>& col_indices() const { return this->col_indices_; }
  const std::vector<T>& values() const { return this->values_; }
  // Values may change in place (the structure may not).
  std::span<T> mutable_values() { return this->values_; }

  csr_view<T, I> view() const {
    return {this->rows_, this->cols_, this->offsets_, this->col_indices_, this->values_};
  }
  operator csr_view<T, I>() const { return view(); }

  csr_row_stats stats() const { return detail::sparse::row_stats<I>(this->rows_, this->offsets_); }
};

// A CSR matrix in device memory, with the row statistics measured when it
// was made.
template <class T, class I>
class device_csr_matrix
    : public detail::sparse::csr_arrays<T, I, device_vector<I>, device_vector<T>> {
  using base = detail::sparse::csr_arrays<T, I, device_vector<I>, device_vector<T>>;

 public:
  device_csr_matrix() = default;
  // Checked on the host, then copied.
  explicit device_csr_matrix(const csr_matrix<T, I>& host)
      : base(host.rows(), host.cols(), to_device(host.row_offsets()), to_device(host.col_indices()),
             to_device(host.values())),
        stats_(host.stats()) {}

  const csr_row_stats& stats() const { return stats_; }
  device_span<T> mutable_values() { return this->values_.span(); }

  // The column analysis for spmv, made once (cf. cusparseSpMV_preprocess):
  // the columns with the most entries, as many as the current device's
  // shared memory holds x of in spmv's hot-columns kernel (49888
  // floats or 20832 doubles on an H100 / H200), each with enough entries
  // to pay for its copy into every SM's table. Keeps them and a copy of
  // the column indices with theirs recoded (nnz more indices of device
  // memory); stats().hot_columns and hot_entries say what was found.
  // Counts the columns on the host (a counter a column; the column indices
  // are copied back once). Structure changes are not possible afterwards
  // (only values change), so the analysis stays valid; calling it again
  // redoes it for the current device. Throws gp::cuda_error without a device.
  void prepare_spmv() {
    const device_info info = get_device_info();
    const std::size_t shared =
        std::min(info.shared_memory_per_block_optin, info.shared_memory_per_multiprocessor - 1024);
    // A hot column's table slot is copied into every SM's table
    // (sizeof(T) bytes each); it pays when its gathers (a 32-byte sector
    // each) outweigh that.
    const std::size_t min_count = std::max<std::size_t>(
        2, static_cast<std::size_t>(info.multiprocessor_count) * sizeof(T) / 32 + 1);
    const std::vector<I> cols = gpuprim::to_host(this->col_indices_);
    detail::sparse::hot_column_analysis<I> a = detail::sparse::analyse_hot_columns<I>(
        this->cols_, cols, detail::sparse::hot_table_capacity<T>(shared), min_count);
    hot_columns_ = to_device(a.columns);
    hot_col_indices_ = to_device(a.recoded);
    stats_.hot_columns = a.columns.size();
    stats_.hot_entries = a.entries;
  }

  device_csr_view<T, I> view() const {
    return {this->rows_,
            this->cols_,
            this->offsets_.span(),
            this->col_indices_.span(),
            this->values_.span(),
            stats_,
            {hot_columns_.span(), hot_col_indices_.span()}};
  }
  operator device_csr_view<T, I>() const { return view(); }

  csr_matrix<T, I> to_host() const {
    return csr_matrix<T, I>(this->rows_, this->cols_, gpuprim::to_host(this->offsets_),
                            gpuprim::to_host(this->col_indices_), gpuprim::to_host(this->values_));
  }

 private:
  csr_row_stats stats_;
  device_vector<I> hot_columns_;      // prepare_spmv: the hot columns
  device_vector<I> hot_col_indices_;  // and the column indices, hot ones recoded
};

template <class T, class I>
device_csr_matrix<T, I> to_device(const csr_matrix<T, I>& host) {
  return device_csr_matrix<T, I>(host);
}
template <class T, class I>
csr_matrix<T, I> to_host(const device_csr_matrix<T, I>& device) {
  return device.to_host();
}

// Checks a view's structure (what the csr_matrix constructor checks).
template <class T, class I>
void check_csr(const csr_view<T, I>& A) {
  detail::sparse::check_csr<I>("check_csr", A.rows, A.cols, A.row_offsets, A.col_indices,
                               A.values.size());
}

// The same check on a backend, returning the row statistics spmv's kernel
// choice reads (a device_csr_view that carries them in `stats` is not
// measured again): throws std::invalid_argument naming the first bad row
// (offsets before column indices, as the host check). On the GPU: two
// grid-stride passes (offsets, column indices) and one synchronization;
// the caller may keep the result as long as the structure does not change
// (gpuprim.sparse caches it on the Python matrix object).
template <class T, class I>
csr_row_stats check_csr(host_backend, const csr_view<T, I>& A) {
  check_csr(A);
  return detail::sparse::row_stats<I>(A.rows, A.row_offsets);
}
template <class T, class I>
csr_row_stats check_csr(cuda_backend backend, const device_csr_view<T, I>& A) {
  detail::sparse::check_csr_sizes<I>("check_csr", A.rows, A.cols, A.row_offsets.size(),
                                     A.col_indices.size(), A.values.size());
  const detail::csr_check_result r = detail::on_cuda("check_csr", [&] {
    return detail::cuda_check_csr<I>(A.rows, A.cols, A.values.size(), A.row_offsets.data(),
                                     A.col_indices.data(), backend.stream);
  });
  if (r.defect != csr_defect::none) {
    throw std::invalid_argument(detail::sparse::where("check_csr") +
                                detail::sparse::csr_defect_message(r.defect, r.row, r.begin, r.end,
                                                                   r.column, A.rows, A.cols,
                                                                   A.values.size()));
  }
  return r.stats;
}

// A rows x cols matrix from coordinate (COO) entries, in any order:
// duplicates are summed, each row's columns sorted. Indices are 0-based;
// one outside the matrix throws std::invalid_argument naming the entry.
template <class T, class I>
csr_matrix<T, I> coo_to_csr(std::size_t rows, std::size_t cols, std::span<const I> row_indices,
                            std::span<const I> col_indices, std::span<const T> values) {
  const std::string w = detail::sparse::where("coo_to_csr");
  if (row_indices.size() != values.size() || col_indices.size() != values.size()) {
    throw std::invalid_argument(w + "row_indices, col_indices and values have " +
                                std::to_string(row_indices.size()) + ", " +
                                std::to_string(col_indices.size()) + " and " +
                                std::to_string(values.size()) + " entries; they must match");
  }
  if (rows > static_cast<std::size_t>(std::numeric_limits<I>::max()) ||
      cols > static_cast<std::size_t>(std::numeric_limits<I>::max()) ||
      values.size() > static_cast<std::size_t>(std::numeric_limits<I>::max())) {
    throw std::invalid_argument(w + "the matrix does not fit its index type; use int64 indices");
  }
  const std::size_t n = values.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (row_indices[k] < 0 || static_cast<std::size_t>(row_indices[k]) >= rows ||
        col_indices[k] < 0 || static_cast<std::size_t>(col_indices[k]) >= cols) {
      throw std::invalid_argument(w + "entry " + std::to_string(k) + " (" +
                                  std::to_string(row_indices[k]) + ", " +
                                  std::to_string(col_indices[k]) + ") is outside the " +
                                  std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
    }
  }
  // Entries already in CSR order (rows ascending, columns strictly
  // ascending within a row, as write_mtx and most files have them): the
  // offsets from a count, the arrays copied as they are.
  bool in_order = true;
#pragma omp parallel for schedule(static) reduction(&& : in_order)
  for (std::int64_t k = 1; k < static_cast<std::int64_t>(n); ++k) {
    in_order =
        in_order && (row_indices[k - 1] < row_indices[k] ||
                     (row_indices[k - 1] == row_indices[k] && col_indices[k - 1] < col_indices[k]));
  }
  if (in_order) {
    std::vector<I> offsets(rows + 1, 0);
    for (std::size_t k = 0; k < n; ++k)
      ++offsets[static_cast<std::size_t>(row_indices[k]) + 1];
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    return csr_matrix<T, I>(rows, cols, std::move(offsets),
                            std::vector<I>(col_indices.begin(), col_indices.end()),
                            std::vector<T>(values.begin(), values.end()));
  }
  // Counting sort by row (stable), then each row sorted by column and its
  // repeats summed in input order.
  std::vector<std::size_t> start(rows + 1, 0);
  for (std::size_t k = 0; k < n; ++k)
    ++start[static_cast<std::size_t>(row_indices[k]) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::size_t> order(n);
  {
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t k = 0; k < n; ++k)
      order[next[static_cast<std::size_t>(row_indices[k])]++] = k;
  }
  std::vector<I> counts(rows + 1, 0);
  std::vector<I> out_cols(n);
  std::vector<T> out_vals(n);
  const std::int64_t num_rows = static_cast<std::int64_t>(rows);
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t r = 0; r < num_rows; ++r) {
    const std::size_t b = start[r], e = start[r + 1];
    std::stable_sort(order.begin() + b, order.begin() + e,
                     [&](std::size_t p, std::size_t q) { return col_indices[p] < col_indices[q]; });
    std::size_t out = b;
    for (std::size_t k = b; k < e; ++k) {
      const std::size_t src = order[k];
      if (out > b && out_cols[out - 1] == col_indices[src]) {
        out_vals[out - 1] += values[src];
      } else {
        out_cols[out] = col_indices[src];
        out_vals[out] = values[src];
        ++out;
      }
    }
    counts[r + 1] = static_cast<I>(out - b);
  }
  // Compact the rows that lost repeats.
  std::vector<I> offsets(rows + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), offsets.begin());
  const std::size_t total = static_cast<std::size_t>(offsets[rows]);
  if (total != n) {
    for (std::size_t r = 0; r < rows; ++r) {
      std::copy_n(out_cols.begin() + start[r], counts[r + 1], out_cols.begin() + offsets[r]);
      std::copy_n(out_vals.begin() + start[r], counts[r + 1], out_vals.begin() + offsets[r]);
    }
    out_cols.resize(total);
    out_vals.resize(total);
  }
  return csr_matrix<T, I>(rows, cols, std::move(offsets), std::move(out_cols), std::move(out_vals));
}
template <class T, class I>
csr_matrix<T, I> coo_to_csr(std::size_t rows, std::size_t cols, const std::vector<I>& row_indices,
                            const std::vector<I>& col_indices, const std::vector<T>& values) {
  return coo_to_csr<T, I>(rows, cols, std::span<const I>(row_indices),
                          std::span<const I>(col_indices), std::span<const T>(values));
}

// ---- SpMV -------------------------------------------------------------------

namespace detail::sparse {

// The checks of spmv on both backends (A a host or device CSR view): the
// sizes, the row offsets' length, x apart from y.
template <class View, class X, class Y>
void check_spmv(const View& A, const X& x, const Y& y) {
  check_spmv_sizes(A.rows, A.cols, x.size(), y.size());
  if (A.row_offsets.size() != A.rows + 1) {
    throw std::invalid_argument(
        "gpuprim::spmv: row_offsets has " + std::to_string(A.row_offsets.size()) + " entries; " +
        std::to_string(A.rows) + " rows need " + std::to_string(A.rows + 1));
  }
  if (overlap(x.data(), x.size(), y.data(), y.size())) {
    throw std::invalid_argument("gpuprim::spmv: x and y overlap");
  }
}

}  // namespace detail::sparse

template <class T, class I>
void spmv(host_backend backend, std::type_identity_t<T> alpha, const csr_view<T, I>& A,
          std::type_identity_t<std::span<const T>> x, std::type_identity_t<T> beta,
          std::type_identity_t<std::span<T>> y) {
  detail::sparse::check_spmv(A, x, y);
  host_impl::spmv(backend, alpha, A.rows, A.row_offsets.data(), A.col_indices.data(),
                  A.values.data(), x.data(), beta, y.data());
}
template <class T, class I>
void spmv(host_backend backend, std::type_identity_t<T> alpha, const csr_matrix<T, I>& A,
          std::type_identity_t<std::span<const T>> x, std::type_identity_t<T> beta,
          std::type_identity_t<std::span<T>> y) {
  spmv(backend, alpha, A.view(), x, beta, y);
}

template <class T, class I>
void spmv(cuda_backend backend, std::type_identity_t<T> alpha, const device_csr_view<T, I>& A,
          std::type_identity_t<device_span<const T>> x, std::type_identity_t<T> beta,
          std::type_identity_t<device_span<T>> y, spmv_kernel kernel = spmv_kernel::automatic) {
  detail::sparse::check_spmv(A, x, y);
  if (A.rows == 0) return;
  csr_row_stats stats = A.stats;
  if (!stats.known && kernel == spmv_kernel::automatic) {
    stats = detail::on_cuda("spmv", [&] {
      return detail::cuda_row_stats<I>(A.rows, A.row_offsets.data(), backend.stream);
    });
  }
  stats.rows = A.rows;
  stats.nnz = A.nnz();
  if (A.hot.columns.empty() || A.hot.col_indices.size() != A.nnz()) {
    stats.hot_columns = 0;  // no analysis, or a view without its arrays
    stats.hot_entries = 0;
  }
  const spmv_choice choice = choose_spmv_kernel(stats, kernel);
#if !defined(__CUDACC__)
  static_assert(detail::precompiled_spmv<T, I>,
                "gpuprim: this value/index pair of spmv is not precompiled into the library; "
                "call it from a .cu file that includes gpuprim/cuda/device/device_spmv.cuh");
#endif
  detail::on_cuda("spmv", [&] {
    detail::cuda_spmv<T, I>(alpha, A, x.data(), beta, y.data(), choice, backend.stream);
  });
}
template <class T, class I>
void spmv(cuda_backend backend, std::type_identity_t<T> alpha, const device_csr_matrix<T, I>& A,
          std::type_identity_t<device_span<const T>> x, std::type_identity_t<T> beta,
          std::type_identity_t<device_span<T>> y, spmv_kernel kernel = spmv_kernel::automatic) {
  spmv(backend, alpha, A.view(), x, beta, y, kernel);
}

}  // namespace gpuprim
