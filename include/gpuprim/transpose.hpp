// Transpose family: out = in^T, out of place, for row-major matrices with a
// leading dimension (gp::matrix_view / gp::device_matrix_view, see
// gpuprim/core/matrix_view.hpp), and for stacks of matrices.
//
//   std::vector<float> a(m * n), t(n * m);
//   gp::transpose(gp::host, gp::matrix_view<const float>(a.data(), m, n),
//                 gp::matrix_view<float>(t.data(), n, m));
//   gp::device_vector<double> d_a(m * lda), d_t(n * m);
//   gp::transpose(gp::cuda.on(s), gp::make_matrix_view(d_a.span(), m, n, lda),
//                 gp::make_matrix_view(d_t.span(), n, m));
//   // A stack of `batch` packed rows x cols matrices (the last two axes of a 3-D array):
//   gp::transpose_batched(gp::host, std::span(x), std::span(y), batch, rows, cols);
//   // Raw elements of 1, 2, 4, 8 or 16 bytes (e.g. an .npy file's data):
//   gp::transpose_bytes(gp::host, 8, in_ptr, rows, cols, out_ptr);
//
// Semantics, for every backend:
//  - Any trivially copyable element of 1, 2, 4, 8 or 16 bytes (int8 ...
//    double, std::complex<double>); elements are moved as bits (a NaN keeps
//    its payload, -0.0 its sign).
//  - out.rows() == in.cols() and out.cols() == in.rows(), else
//    std::invalid_argument. Any shape, including empty ones (nothing
//    happens), 1 x n and n x 1; leading dimensions may exceed the widths.
//  - Out of place only: in and out must not overlap (std::invalid_argument).
//  - Bad arguments throw before anything is written.
// The GPU forms enqueue on the backend's stream and do not synchronize.
// Every element size is precompiled into the library (one kernel per size,
// GPUPRIM_TRANSPOSE_SIZES), so plain C++ programs call the GPU backend.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/detail/transpose/by_size.hpp"
#include "gpuprim/detail/transpose/transpose.hpp"
#include "gpuprim/host/transpose.hpp"

namespace gpuprim {

// Element types transpose takes: anything trivially copyable of a supported
// size (1, 2, 4, 8 or 16 bytes: GPUPRIM_TRANSPOSE_SIZES).
template <class T>
concept transposable =
    std::is_trivially_copyable_v<T> && detail::precompiled_transpose_size<sizeof(T)>;

// ---- host -------------------------------------------------------------------

template <class In, class Out>
requires transposable<Out> && std::is_same_v<std::remove_const_t<In>, Out>
void transpose(host_backend backend, matrix_view<In> in, matrix_view<Out> out) {
  const auto shape = detail::checked_transpose("transpose", in, out);
  host_impl::transpose_sized<sizeof(Out)>(backend, in.data(), out.data(), shape);
}

// out[b] = in[b]^T for a stack of `batch` packed rows x cols matrices
// (in.size() == out.size() == batch * rows * cols).
template <class In, class Out>
requires transposable<Out> && std::is_same_v<std::remove_const_t<In>, Out>
void transpose_batched(host_backend backend, std::span<In> in, std::span<Out> out,
                       std::size_t batch, std::size_t rows, std::size_t cols) {
  const auto shape = detail::checked_batched_transpose("transpose_batched", in.size(), out.size(),
                                                       batch, rows, cols);
  if (detail::spans_overlap<Out>(in.data(), in.size(), out.data(), out.size())) {
    throw std::invalid_argument(
        "gpuprim::transpose_batched: in and out overlap (transpose is out of place)");
  }
  host_impl::transpose_sized<sizeof(Out)>(backend, in.data(), out.data(), shape);
}

// Raw elements of `element_size` bytes (1, 2, 4, 8 or 16; any alignment):
// the packed rows x cols matrix at `in` into the packed cols x rows matrix
// at `out`, or with leading dimensions (in elements) ld_in >= cols and
// ld_out >= rows. The buffers must not overlap.
inline void transpose_bytes(host_backend backend, std::size_t element_size, const void* in,
                            std::size_t rows, std::size_t cols, std::size_t ld_in, void* out,
                            std::size_t ld_out) {
  const detail::transpose_shape s = detail::checked_bytes_transpose<detail::matrix::host_space>(
      element_size, in, rows, cols, ld_in, out, ld_out);
  host_impl::transpose_bytes(backend, element_size, in, out, s);
}
inline void transpose_bytes(host_backend backend, std::size_t element_size, const void* in,
                            std::size_t rows, std::size_t cols, void* out) {
  transpose_bytes(backend, element_size, in, rows, cols, cols, out, rows);
}

// A stack of `batch` packed rows x cols matrices of raw elements (the last
// two axes of a 3-D array), each transposed; the buffers must not overlap.
inline void transpose_bytes_batched(host_backend backend, std::size_t element_size, const void* in,
                                    void* out, std::size_t batch, std::size_t rows,
                                    std::size_t cols) {
  const detail::transpose_shape s =
      detail::checked_bytes_batched_transpose(element_size, in, out, batch, rows, cols);
  host_impl::transpose_bytes(backend, element_size, in, out, s);
}

// ---- CUDA -------------------------------------------------------------------

template <class In, class Out>
requires transposable<Out> && std::is_same_v<std::remove_const_t<In>, Out>
void transpose(cuda_backend backend, device_matrix_view<In> in, device_matrix_view<Out> out) {
  const auto shape = detail::checked_transpose("transpose", in, out);
  if (in.empty()) return;
  detail::on_cuda("transpose", [&] {
    detail::cuda_transpose_sized<sizeof(Out)>(in.data(), out.data(), shape, backend.stream);
  });
}

template <device_range R, device_range W>
requires transposable<device_range_value_t<W>> &&
    std::is_same_v<std::remove_const_t<device_range_value_t<const R>>, device_range_value_t<W>>
void transpose_batched(cuda_backend backend, const R& in_range, W&& out_range, std::size_t batch,
                       std::size_t rows, std::size_t cols) {
  using T = device_range_value_t<W>;
  const device_span<const T> in = as_device_span(in_range);
  const device_span<T> out = writable_device_span(out_range);
  const auto shape = detail::checked_batched_transpose("transpose_batched", in.size(), out.size(),
                                                       batch, rows, cols);
  if (detail::spans_overlap<T>(in.data(), in.size(), out.data(), out.size())) {
    throw std::invalid_argument(
        "gpuprim::transpose_batched: in and out overlap (transpose is out of place)");
  }
  if (in.empty()) return;
  detail::on_cuda("transpose", [&] {
    detail::cuda_transpose_sized<sizeof(T)>(in.data(), out.data(), shape, backend.stream);
  });
}

// Raw device elements of `element_size` bytes; as the host form.
inline void transpose_bytes(cuda_backend backend, std::size_t element_size, const void* in,
                            std::size_t rows, std::size_t cols, std::size_t ld_in, void* out,
                            std::size_t ld_out) {
  const detail::transpose_shape s = detail::checked_bytes_transpose<detail::matrix::device_space>(
      element_size, in, rows, cols, ld_in, out, ld_out);
  if (rows == 0 || cols == 0) return;
  detail::cuda_transpose_bytes(element_size, in, out, s, backend.stream);
}

inline void transpose_bytes_batched(cuda_backend backend, std::size_t element_size, const void* in,
                                    void* out, std::size_t batch, std::size_t rows,
                                    std::size_t cols) {
  const detail::transpose_shape s =
      detail::checked_bytes_batched_transpose(element_size, in, out, batch, rows, cols);
  if (s.batch * s.stride_in == 0) return;
  detail::cuda_transpose_bytes(element_size, in, out, s, backend.stream);
}

}  // namespace gpuprim
