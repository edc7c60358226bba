// The sparse matrix-vector product's shared detail: the GPU kernel choice
// (public API of gpuprim/sparse.hpp, documented here), its CUDA entry
// points and the size and overlap checks both backends make.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/sparse/csr.hpp"
#include "gpuprim/detail/sparse/precompiled.hpp"

namespace gpuprim {

// The GPU kernels (gpuprim/cuda/device/device_spmv.cuh).
enum class spmv_kernel {
  automatic,       // chosen by choose_spmv_kernel
  row_per_thread,  // one thread per row
  subwarp,         // 2..32 lanes per row (sized to the mean row length)
  merge_path,      // equal shares of rows + nonzeros per thread (uneven rows)
  staged_rows,     // a warp per 32 rows, their entries staged in shared memory (short rows)
  hot_columns,     // merge path over warp tiles, x of the hottest columns in shared memory
                   // (device_csr_matrix::prepare_spmv's analysis; without one, or with no
                   // hot column, or a table too large for this GPU: merge_path)
};

struct spmv_choice {
  spmv_kernel kernel = spmv_kernel::subwarp;
  int lanes = 32;  // lanes per row (1 for row_per_thread; 0 for the others)
};

// The hot-columns kernel's shape (gpuprim/cuda/device/device_spmv.cuh):
// blocks of 1024 threads, one a SM, a warp a tile of 32 x 8 merge-path
// items, each warp staging its tile in shared memory beside the table.
inline constexpr int spmv_hot_threads = 1024;
inline constexpr int spmv_hot_items = 8;

// Automatic use of the hot-columns kernel (choose_spmv_kernel): at least
// this many entries, and this share of them in the hot columns.
inline constexpr std::size_t spmv_hot_min_nnz = std::size_t{1} << 22;
inline constexpr double spmv_hot_min_share = 0.4;

// The documented rule (docs/families/sparse.md):
//  - merge_path when rows are very uneven: the longest row has at least 256
//    entries and at least 32 times the mean (power-law graphs); a warp per
//    row would leave most warps idle while a few walk the long rows;
//    hot_columns instead when the matrix was analysed (prepare_spmv), has
//    at least 2^22 entries and its hot columns hold at least 40 % of them:
//    there the gathers of x, each a 32-byte L2 sector, are the bound, and
//    the hot ones become shared-memory reads (R-MAT 2^22 x 16 on an H200,
//    58.8 % hot: 440 us instead of the merge path's 602; with 44 % hot and
//    half the table, 489 us). Not measured on the other kernels' matrices,
//    so they keep theirs;
//  - staged_rows when the mean row length is at most 8: a warp takes 32
//    rows, reads their entries (about 32 x mean) as one contiguous run with
//    every lane busy, and stages the products in shared memory;
//  - otherwise lanes per row = the power of two nearest below the mean row
//    length, from 1 (row_per_thread, mean < 2) to 32 (a warp per row).
inline spmv_choice choose_spmv_kernel(const csr_row_stats& s,
                                      spmv_kernel forced = spmv_kernel::automatic) {
  const double mean = s.mean_row();
  auto lanes_for_mean = [&] {
    int lanes = 1;
    while (lanes < 32 && 2.0 * lanes <= mean)
      lanes *= 2;
    return lanes;
  };
  switch (forced) {
    case spmv_kernel::row_per_thread:
      return {spmv_kernel::row_per_thread, 1};
    case spmv_kernel::subwarp:
      return {spmv_kernel::subwarp, std::max(2, lanes_for_mean())};
    case spmv_kernel::merge_path:
      return {spmv_kernel::merge_path, 0};
    case spmv_kernel::staged_rows:
      return {spmv_kernel::staged_rows, 0};
    case spmv_kernel::hot_columns:
      return {spmv_kernel::hot_columns, 0};
    case spmv_kernel::automatic:
      break;
  }
  if (s.max_row >= 256 && static_cast<double>(s.max_row) >= 32.0 * std::max(mean, 1.0)) {
    if (s.hot_columns > 0 && s.nnz >= spmv_hot_min_nnz &&
        static_cast<double>(s.hot_entries) >= spmv_hot_min_share * static_cast<double>(s.nnz)) {
      return {spmv_kernel::hot_columns, 0};
    }
    return {spmv_kernel::merge_path, 0};
  }
  if (mean <= 8.0) return {spmv_kernel::staged_rows, 0};
  const int lanes = lanes_for_mean();
  return lanes == 1 ? spmv_choice{spmv_kernel::row_per_thread, 1}
                    : spmv_choice{spmv_kernel::subwarp, lanes};
}

namespace detail {

// Defined in gpuprim/cuda/device/device_spmv.cuh, compiled for each pair of
// GPUPRIM_SPARSE_TYPES (detail/sparse/precompiled.hpp).
template <class T, class I>
void cuda_spmv(T alpha, const device_csr_view<T, I>& A, const T* x, T beta, T* y,
               spmv_choice choice, stream_t stream);
template <class I>
csr_row_stats cuda_row_stats(std::size_t rows, const I* offsets, stream_t stream);

// What the GPU's structure check found (gpuprim/cuda/device/device_csr_check.cuh):
// the first bad row, its defect and what its message names (the row's two
// offsets, or the bad column index), else the row statistics.
struct csr_check_result {
  csr_defect defect = csr_defect::none;
  std::size_t row = 0;
  long long begin = 0, end = 0, column = 0;
  csr_row_stats stats;
};
template <class I>
csr_check_result cuda_check_csr(std::size_t rows, std::size_t cols, std::size_t nnz,
                                const I* offsets, const I* col_indices, stream_t stream);

}  // namespace detail

namespace detail::sparse {

// Shared memory of a hot-columns block beside its table: the warps'
// stages, 32 x spmv_hot_items + 1 values each.
template <class T>
inline constexpr std::size_t hot_stage_bytes = static_cast<std::size_t>(spmv_hot_threads / 32) *
                                               (32 * spmv_hot_items + 1) * sizeof(T);

// Slots of x the hot-columns kernel's table holds for values T in a block
// that may have `shared_bytes` of shared memory (what is left beside the
// warps' stages), a multiple of 4 (the table is copied in 16-byte vectors).
template <class T>
constexpr std::size_t hot_table_capacity(std::size_t shared_bytes) {
  return shared_bytes > hot_stage_bytes<T> ? (shared_bytes - hot_stage_bytes<T>) / sizeof(T) / 4 * 4
                                           : 0;
}

// Shared memory of a hot-columns block with a table of `slots` (padded to 4).
template <class T>
constexpr std::size_t hot_shared_bytes(std::size_t slots) {
  return (slots + 3) / 4 * 4 * sizeof(T) + hot_stage_bytes<T>;
}

// The sum of row `row`'s entries on the diagonal of a CSR matrix (0 when
// there is none): the Jacobi divisor of both backends' solver operators.
template <class T, class I>
GPUPRIM_HD T csr_diagonal(const I* offsets, const I* cols, const T* values, std::size_t row) {
  T d = 0;
  for (I k = offsets[row]; k < offsets[row + 1]; ++k)
    if (static_cast<std::size_t>(cols[k]) == row) d += values[k];
  return d;
}

inline void check_spmv_sizes(std::size_t rows, std::size_t cols, std::size_t x_size,
                             std::size_t y_size) {
  if (x_size != cols) {
    throw std::invalid_argument("gpuprim::spmv: x has " + std::to_string(x_size) +
                                " elements; the matrix has " + std::to_string(cols) + " columns");
  }
  if (y_size != rows) {
    throw std::invalid_argument("gpuprim::spmv: y has " + std::to_string(y_size) +
                                " elements; the matrix has " + std::to_string(rows) + " rows");
  }
}

template <class A, class B>
bool overlap(const A* a, std::size_t na, const B* b, std::size_t nb) {
  if (!na || !nb) return false;
  const auto* a0 = reinterpret_cast<const unsigned char*>(a);
  const auto* b0 = reinterpret_cast<const unsigned char*>(b);
  return a0 < b0 + nb * sizeof(B) && b0 < a0 + na * sizeof(A);
}

}  // namespace detail::sparse
}  // namespace gpuprim
