// The transpose's shared detail: the checks of shapes, sizes and overlap both
// backends make (the entry points are in entry.hpp).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/transpose/entry.hpp"
#include "gpuprim/detail/transpose/plan.hpp"
#include "gpuprim/detail/transpose/precompiled.hpp"

namespace gpuprim::detail {

inline void check_element_size(const char* algorithm, std::size_t element_size) {
  if (element_size != 1 && element_size != 2 && element_size != 4 && element_size != 8 &&
      element_size != 16) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": element size " +
                                std::to_string(element_size) +
                                " bytes is not supported (1, 2, 4, 8 or 16)");
  }
}

// The shape of out = in^T, checked: dimensions, no overlap.
template <class In, class Out>
transpose_shape checked_transpose(const char* algorithm, const In& in, const Out& out) {
  const std::string where = std::string("gpuprim::") + algorithm + ": ";
  if (out.rows() != in.cols() || out.cols() != in.rows()) {
    throw std::invalid_argument(
        where + "out is " + std::to_string(out.rows()) + " x " + std::to_string(out.cols()) +
        "; the transpose of a " + std::to_string(in.rows()) + " x " + std::to_string(in.cols()) +
        " matrix is " + std::to_string(in.cols()) + " x " + std::to_string(in.rows()));
  }
  if (ranges_overlap(in, out)) {
    throw std::invalid_argument(where + "in and out overlap (transpose is out of place)");
  }
  return transpose_shape{
      .rows = in.rows(), .cols = in.cols(), .ld_in = in.ld(), .ld_out = out.ld()};
}

// A stack of `batch` packed rows x cols matrices in `in_size` elements, into
// `out_size`, checked (sizes, overflow, no overlap).
inline transpose_shape checked_batched_transpose(const char* algorithm, std::size_t in_size,
                                                 std::size_t out_size, std::size_t batch,
                                                 std::size_t rows, std::size_t cols) {
  const std::string where = std::string("gpuprim::") + algorithm + ": ";
  const std::size_t per_matrix = detail::matrix::checked_extent(rows, cols, cols, algorithm);
  if (per_matrix != 0 && batch > static_cast<std::size_t>(-1) / per_matrix) {
    throw std::invalid_argument(where + "the stack does not fit in memory");
  }
  const std::size_t need = batch * per_matrix;
  if (in_size != need || out_size != need) {
    throw std::invalid_argument(where + std::to_string(batch) + " matrices of " +
                                std::to_string(rows) + " x " + std::to_string(cols) + " need " +
                                std::to_string(need) + " elements; in has " +
                                std::to_string(in_size) + ", out has " + std::to_string(out_size));
  }
  // Fields: rows, cols, ld_in, ld_out, batch, stride_in, stride_out.
  return transpose_shape{rows, cols, cols, rows, batch, per_matrix, per_matrix};
}

template <class T>
bool spans_overlap(const T* a, std::size_t a_size, const T* b, std::size_t b_size) {
  if (a_size == 0 || b_size == 0) return false;
  return a < b + b_size && b < a + a_size;
}

// The shape of transpose_bytes, checked: element size, leading dimensions,
// no overlap (Space: where the buffers are).
template <class Space>
transpose_shape checked_bytes_transpose(std::size_t element_size, const void* in, std::size_t rows,
                                        std::size_t cols, std::size_t ld_in, const void* out,
                                        std::size_t ld_out) {
  check_element_size("transpose_bytes", element_size);
  if (rows != 0 && cols != 0 && (ld_in < cols || ld_out < rows)) {
    throw std::invalid_argument(
        "gpuprim::transpose_bytes: a leading dimension is less than the "
        "width of its matrix");
  }
  const basic_matrix_view<const unsigned char, Space> in_bytes(
      static_cast<const unsigned char*>(in), rows, cols * element_size, ld_in * element_size);
  const basic_matrix_view<const unsigned char, Space> out_bytes(
      static_cast<const unsigned char*>(out), cols, rows * element_size, ld_out * element_size);
  if (ranges_overlap(in_bytes, out_bytes)) {
    throw std::invalid_argument(
        "gpuprim::transpose_bytes: in and out overlap (transpose is out of place)");
  }
  // Fields: rows, cols, ld_in, ld_out.
  return transpose_shape{rows, cols, ld_in, ld_out};
}

// The shape of transpose_bytes_batched (a stack of `batch` packed rows x
// cols matrices), checked: element size, size, no overlap.
inline transpose_shape checked_bytes_batched_transpose(std::size_t element_size, const void* in,
                                                       const void* out, std::size_t batch,
                                                       std::size_t rows, std::size_t cols) {
  check_element_size("transpose_bytes_batched", element_size);
  transpose_shape s = checked_batched_transpose("transpose_bytes_batched", 0, 0, 0, rows, cols);
  const std::size_t bytes = batch * s.stride_in * element_size;
  if (spans_overlap(static_cast<const unsigned char*>(in), bytes,
                    static_cast<const unsigned char*>(out), bytes)) {
    throw std::invalid_argument(
        "gpuprim::transpose_bytes_batched: in and out overlap (transpose is out of place)");
  }
  s.batch = batch;
  return s;
}

}  // namespace gpuprim::detail
