// The CSR types both backends read, part of the public API of
// gpuprim/sparse.hpp (the header to include): the index and value types,
// the row-length statistics, the unchecked host and device views, and the
// structure checks the owning matrices make.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/device_span.hpp"

namespace gpuprim {

template <class I>
concept sparse_index = std::is_same_v<I, std::int32_t> || std::is_same_v<I, std::int64_t>;

template <class T>
concept sparse_value = std::is_same_v<T, float> || std::is_same_v<T, double>;

// Row-length statistics of a CSR matrix: what the GPU kernel choice needs.
struct csr_row_stats {
  bool known = false;
  std::size_t rows = 0;
  std::size_t nnz = 0;
  std::size_t max_row = 0;  // the longest row's entries
  std::size_t empty_rows = 0;
  // The column analysis of device_csr_matrix::prepare_spmv (0 without it):
  // the hottest columns, whose x the GPU kernel keeps in shared memory, and
  // the entries in them.
  std::size_t hot_columns = 0;
  std::size_t hot_entries = 0;

  double mean_row() const {
    return rows ? static_cast<double>(nnz) / static_cast<double>(rows) : 0;
  }
};

// A CSR matrix in host memory (unchecked view).
template <class T, class I>
struct csr_view {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::span<const I> row_offsets;  // rows + 1
  std::span<const I> col_indices;  // nnz
  std::span<const T> values;       // nnz

  std::size_t nnz() const { return values.size(); }
};

// The hottest columns of a device matrix (device_csr_matrix::prepare_spmv):
// slot s of the table holds x[columns[s]]; col_indices is a copy of the
// matrix's column indices with each hot column's index recoded as
// hot_column_flag<I> | slot. Empty when the matrix was not analysed.
template <class I>
inline constexpr I hot_column_flag = std::numeric_limits<I>::min();

template <class I>
struct csr_hot_columns {
  device_span<const I> columns;      // the hot columns, ascending
  device_span<const I> col_indices;  // nnz, hot columns recoded
};

// A CSR matrix in device memory (unchecked view); stats.known when the
// statistics came with it; hot (and stats.hot_columns) when the columns
// were analysed.
template <class T, class I>
struct device_csr_view {
  using value_type = T;
  using index_type = I;
  std::size_t rows = 0;
  std::size_t cols = 0;
  device_span<const I> row_offsets;
  device_span<const I> col_indices;
  device_span<const T> values;
  csr_row_stats stats;
  csr_hot_columns<I> hot;

  std::size_t nnz() const { return values.size(); }
};

// What a CSR structure check can find wrong, in the order it looks
// (check_csr in gpuprim/sparse.hpp; the GPU's check reports the first bad
// row and its defect).
enum class csr_defect : int {
  none = 0,
  first_offset,    // row_offsets[0] != 0
  decreasing,      // row_offsets[r + 1] < row_offsets[r]
  past_end,        // row_offsets[r + 1] > nnz
  last_offset,     // row_offsets[rows] != nnz
  column_outside,  // a column index of row r outside [0, cols)
};

namespace detail::sparse {

inline std::string where(const char* algorithm) {
  return std::string("gpuprim::") + algorithm + ": ";
}

// The message of a defect of row `row` (begin, end: its two offsets; for
// column_outside, `column` the bad index), for both backends' checks.
inline std::string csr_defect_message(csr_defect defect, std::size_t row, long long begin,
                                      long long end, long long column, std::size_t rows,
                                      std::size_t cols, std::size_t num_values) {
  const std::string r = std::to_string(row);
  switch (defect) {
    case csr_defect::first_offset:
      return "row_offsets[0] is " + std::to_string(begin) + ", not 0";
    case csr_defect::decreasing:
      return "row " + r + ": row_offsets decrease (" + std::to_string(begin) + " then " +
             std::to_string(end) + ")";
    case csr_defect::past_end:
      return "row " + r + ": row_offsets[" + std::to_string(row + 1) +
             "] = " + std::to_string(end) + " is past the " + std::to_string(num_values) +
             " entries";
    case csr_defect::last_offset:
      return "the last row offset is " + std::to_string(end) + " but there are " +
             std::to_string(num_values) + " entries (nnz); row " +
             std::to_string(rows ? rows - 1 : 0) + " ends early";
    case csr_defect::column_outside:
      return "row " + r + ": column index " + std::to_string(column) + " is outside [0, " +
             std::to_string(cols) + ")";
    case csr_defect::none:
      break;
  }
  return "";
}

// The size checks of a structure check (both backends), before any entry
// is read.
template <class I>
void check_csr_sizes(const char* algorithm, std::size_t rows, std::size_t cols,
                     std::size_t num_offsets, std::size_t num_cols, std::size_t num_values) {
  const std::string w = where(algorithm);
  if (num_offsets != rows + 1) {
    throw std::invalid_argument(w + "row_offsets has " + std::to_string(num_offsets) +
                                " entries; " + std::to_string(rows) + " rows need " +
                                std::to_string(rows + 1));
  }
  if (num_cols != num_values) {
    throw std::invalid_argument(w + "col_indices has " + std::to_string(num_cols) +
                                " entries but values has " + std::to_string(num_values));
  }
  if (cols > static_cast<std::size_t>(std::numeric_limits<I>::max()) ||
      num_values > static_cast<std::size_t>(std::numeric_limits<I>::max())) {
    throw std::invalid_argument(w + "the matrix (" + std::to_string(cols) + " columns, " +
                                std::to_string(num_values) +
                                " entries) does not fit its index type; use int64 indices");
  }
}

// Checks the structure of a CSR matrix; throws std::invalid_argument naming
// the first bad row.
template <class I>
void check_csr(const char* algorithm, std::size_t rows, std::size_t cols,
               std::span<const I> offsets, std::span<const I> col_indices, std::size_t num_values) {
  check_csr_sizes<I>(algorithm, rows, cols, offsets.size(), col_indices.size(), num_values);
  auto fail = [&](csr_defect defect, std::size_t row, long long column = 0) {
    const long long begin = static_cast<long long>(offsets[row]);
    const long long end = static_cast<long long>(offsets[std::min(row + 1, rows)]);
    throw std::invalid_argument(where(algorithm) + csr_defect_message(defect, row, begin, end,
                                                                      column, rows, cols,
                                                                      num_values));
  };
  if (offsets[0] != 0) fail(csr_defect::first_offset, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    if (offsets[r + 1] < offsets[r]) fail(csr_defect::decreasing, r);
    if (static_cast<std::size_t>(offsets[r + 1]) > num_values) fail(csr_defect::past_end, r);
  }
  if (static_cast<std::size_t>(offsets[rows]) != num_values)
    fail(csr_defect::last_offset, rows ? rows - 1 : 0);
  // Column indices, row by row (in parallel; the first bad row wins).
  const std::int64_t n = static_cast<std::int64_t>(rows);
  std::int64_t first_bad = n;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (std::int64_t r = 0; r < n; ++r) {
    for (I k = offsets[r]; k < offsets[r + 1]; ++k) {
      if (col_indices[k] < 0 || static_cast<std::size_t>(col_indices[k]) >= cols) {
        first_bad = std::min(first_bad, r);
        break;
      }
    }
  }
  if (first_bad < n) {
    for (I k = offsets[first_bad]; k < offsets[first_bad + 1]; ++k) {
      if (col_indices[k] < 0 || static_cast<std::size_t>(col_indices[k]) >= cols)
        fail(csr_defect::column_outside, static_cast<std::size_t>(first_bad), col_indices[k]);
    }
  }
}

template <class I>
csr_row_stats row_stats(std::size_t rows, std::span<const I> offsets) {
  csr_row_stats s;
  s.known = true;
  s.rows = rows;
  s.nnz = rows ? static_cast<std::size_t>(offsets[rows]) : 0;
  std::size_t max_row = 0, empty = 0;
  const std::int64_t n = static_cast<std::int64_t>(rows);
#pragma omp parallel for schedule(static) reduction(max : max_row) reduction(+ : empty)
  for (std::int64_t r = 0; r < n; ++r) {
    const auto len = static_cast<std::size_t>(offsets[r + 1] - offsets[r]);
    max_row = std::max(max_row, len);
    empty += len == 0;
  }
  s.max_row = max_row;
  s.empty_rows = empty;
  return s;
}

// The column analysis behind device_csr_matrix::prepare_spmv: the columns
// with at least min_count entries, at most `capacity` of them, most
// entries first (ties: the lower column); `columns` ascending, `recoded`
// the column indices with column columns[s] written as
// hot_column_flag<I> | s. One pass to count (a counter a column), one to
// recode.
template <class I>
struct hot_column_analysis {
  std::vector<I> columns;
  std::vector<I> recoded;
  std::size_t entries = 0;
};

template <class I>
hot_column_analysis<I> analyse_hot_columns(std::size_t cols, std::span<const I> col_indices,
                                           std::size_t capacity, std::size_t min_count) {
  using counter = std::make_unsigned_t<I>;
  hot_column_analysis<I> out;
  if (cols == 0 || col_indices.empty() || capacity == 0) return out;
  std::vector<counter> count(cols, 0);
  for (const I c : col_indices)
    ++count[static_cast<std::size_t>(c)];
  std::vector<I> hot;
  for (std::size_t c = 0; c < cols; ++c)
    if (count[c] >= min_count) hot.push_back(static_cast<I>(c));
  auto hotter = [&](I a, I b) { return count[a] > count[b] || (count[a] == count[b] && a < b); };
  if (hot.size() > capacity) {
    std::nth_element(hot.begin(), hot.begin() + static_cast<std::ptrdiff_t>(capacity), hot.end(),
                     hotter);
    hot.resize(capacity);
  }
  std::sort(hot.begin(), hot.end());
  if (hot.empty()) return out;
  // The counters become slots + 1 (0: a cold column).
  for (const I c : hot)
    out.entries += count[static_cast<std::size_t>(c)];
  std::fill(count.begin(), count.end(), counter(0));
  for (std::size_t s = 0; s < hot.size(); ++s)
    count[static_cast<std::size_t>(hot[s])] = static_cast<counter>(s + 1);
  out.recoded.resize(col_indices.size());
  const std::int64_t n = static_cast<std::int64_t>(col_indices.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k) {
    const I c = col_indices[k];
    const counter slot = count[static_cast<std::size_t>(c)];
    out.recoded[k] = slot ? static_cast<I>(hot_column_flag<I> | static_cast<I>(slot - 1)) : c;
  }
  out.columns = std::move(hot);
  return out;
}

}  // namespace detail::sparse
}  // namespace gpuprim
