// Matrix Market (.mtx) files: read and write, parsed in parallel.
//
//   gp::io::mtx_matrix m = gp::io::read_mtx("A.mtx");           // as stored
//   auto A = gp::io::read_mtx_csr<double, std::int32_t>("A.mtx");  // as CSR
//   gp::io::write_mtx("B.mtx", A.view());                       // coordinate real general
//
// Read: `coordinate` files (field real, double, integer or pattern;
// symmetry general, symmetric or skew-symmetric) and `array` files (dense,
// column-major as the format says; symmetric and skew-symmetric arrays
// store the lower triangle, column by column). What scipy.io.mmread takes:
// the banner's first word exactly "%%MatrixMarket", the other words in any
// case; comment lines (%) between the banner and the size line, blank lines
// anywhere; numbers without a leading '+'. Symmetric
// files are expanded: an entry (i, j) below the diagonal also gives (j, i)
// (negated for skew-symmetric). Pattern entries have the value 1.
//
// Errors are gp::io::format_error, one per file, with the file name and
// the line ("A.mtx:12: column index 7 is outside [1, 5]"): a missing or bad
// banner, complex or hermitian fields, a bad size line, a wrong count of
// entries, an index out of range, an unparseable number, an entry above the
// diagonal of a symmetric file, a nonzero diagonal in a skew-symmetric one,
// a comment line among the entries, sizes that do not fit the file (checked
// in 64 bits before anything is allocated), and sizes whose arrays would
// need more than io::memory_limit() ("needs N GiB, more than this machine
// can give").
//
// The data lines are split into one chunk per thread at line boundaries;
// each chunk is counted, then parsed into its place (std::from_chars), so
// a file of 10^8 entries reads in seconds, not minutes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/io/npy.hpp"  // format_error
#include "gpuprim/sparse.hpp"

namespace gpuprim::io {

enum class mtx_format { coordinate, array };
enum class mtx_field { real, integer, pattern };
enum class mtx_symmetry { general, symmetric, skew_symmetric };

struct mtx_matrix {
  mtx_format format = mtx_format::coordinate;
  mtx_field field = mtx_field::real;
  mtx_symmetry symmetry = mtx_symmetry::general;
  std::size_t rows = 0;
  std::size_t cols = 0;
  // coordinate: the entries, 0-based, in file order, the mirrored entries
  // of a symmetric file after all of the file's own.
  std::vector<std::int64_t> row_indices;
  std::vector<std::int64_t> col_indices;
  std::vector<double> values;
  // array: rows * cols values, row-major (converted from the file's
  // column order; the mirrored half of a symmetric file filled in).
  std::vector<double> dense;
};

mtx_matrix read_mtx(const std::filesystem::path& path);

// The same from a whole file's text in memory; `name` names it in errors.
mtx_matrix read_mtx_text(std::string_view text, const std::filesystem::path& name);

// The matrix of a .mtx file as CSR (duplicates summed, rows sorted; the
// zeros of an array file dropped). format_error when an index does not fit I.
template <class T, class I>
csr_matrix<T, I> read_mtx_csr(const std::filesystem::path& path);

// The same from a matrix already read (it is consumed); `path` names it
// in errors.
template <class T, class I>
csr_matrix<T, I> to_csr(mtx_matrix&& m, const std::filesystem::path& path);

// The matrix of a .mtx file as a row-major dense array (rows * cols).
std::vector<double> read_mtx_dense(const std::filesystem::path& path, std::size_t& rows,
                                   std::size_t& cols);

// `coordinate real general`, 1-based, values in the shortest form that
// reads back exactly. format_error when the file cannot be written.
template <class T, class I>
void write_mtx(const std::filesystem::path& path, const csr_view<T, I>& A);

// `array real general`, column-major.
template <class T>
void write_mtx(const std::filesystem::path& path, matrix_view<const T> A);

}  // namespace gpuprim::io
