// Top-k: the k largest (or smallest) elements of an array, or of every row
// of a matrix, with their indices (torch.topk; CUB's DeviceTopK).
//
//   gp::topk(gp::host, x, k, values, indices);                 // k largest
//   gp::topk(gp::host, x, k, values, indices, gp::smallest);
//   gp::topk_rows(gp::host, gp::matrix_view<const float>(x.data(), rows, cols), k,
//                 gp::matrix_view<float>(v.data(), rows, k),
//                 gp::matrix_view<std::int64_t>(i.data(), rows, k));
//
// Semantics, for every backend:
//  - The result is sorted: values[0] is the largest (smallest) element,
//    indices[j] the position of values[j] in x (64-bit).
//  - NaN is the largest value, as NumPy orders it: first of the largest,
//    last of the smallest (the k smallest take NaNs only when fewer than
//    k numbers are there). -0.0 and 0.0 are equal.
//  - Ties go to the smaller index, so the result is deterministic: the same
//    on every run, thread count and backend.
//  - k is from 1 to n (a row's length for topk_rows); k = 0 or k > n throws
//    std::invalid_argument. The outputs of topk hold at least k elements
//    (the first k are written); those of topk_rows are rows x k. Inputs and
//    outputs may not overlap.
//  - Element types: the arithmetic types (any type with < on the host).
//  - Host backend: OpenMP (gpuprim/host/topk.hpp). GPU backend
//    (gpuprim/cuda/device/device_topk.cuh): a stable merge sort of (value,
//    index) pairs, then of the row numbers, and each row's first k;
//    O(n log n), scratch of 16 bytes per element plus the sort's buffers.
//    Precompiled for the arithmetic types; enqueued on the backend's stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/order/checks.hpp"
#include "gpuprim/detail/order/entry.hpp"
#include "gpuprim/host/topk.hpp"

namespace gpuprim {

// Which end top-k takes.
enum class topk_end : bool { smallest = false, largest = true };
inline constexpr topk_end largest = topk_end::largest;
inline constexpr topk_end smallest = topk_end::smallest;

namespace detail {

template <class T, class V, class I>
void topk_check(const char* algorithm, const T* x, std::size_t x_bytes, std::size_t k,
                std::size_t n, const V* v, std::size_t v_bytes, const I* i, std::size_t i_bytes) {
  order_check_k(algorithm, k, n);
  check_disjoint(algorithm, "input", x, x_bytes, "values output", v, v_bytes);
  check_disjoint(algorithm, "input", x, x_bytes, "indices output", i, i_bytes);
  check_disjoint(algorithm, "values output", v, v_bytes, "indices output", i, i_bytes);
}

// The checks of topk over one array (host spans or device spans): the
// element types, k, the outputs' sizes and overlaps.
template <class In, class OV, class OI>
void topk_check_array(const In& in, std::size_t k, const OV& v, const OI& ix) {
  using T = std::remove_cvref_t<decltype(*in.data())>;
  static_assert(std::is_same_v<T, std::remove_cvref_t<decltype(*v.data())>>,
                "gpuprim::topk: the values output has the input's element type");
  static_assert(std::is_same_v<std::int64_t, std::remove_cvref_t<decltype(*ix.data())>>,
                "gpuprim::topk: the indices output holds std::int64_t");
  const char* algorithm = "topk";
  topk_check(algorithm, in.data(), in.size_bytes(), k, in.size(), v.data(), v.size_bytes(),
             ix.data(), ix.size_bytes());
  if (v.size() < k || ix.size() < k) {
    argument_error(algorithm, "the outputs hold " + std::to_string(v.size()) + " values and " +
                                  std::to_string(ix.size()) + " indices, k is " +
                                  std::to_string(k));
  }
}

// The checks of topk_rows (host or device matrix views): a row to take
// from, k, the outputs' shapes and overlaps.
template <class X, class OV, class OI>
void topk_check_rows(const X& x, std::size_t k, const OV& values, const OI& indices) {
  using T = std::remove_cvref_t<decltype(*x.data())>;
  const char* algorithm = "topk_rows";
  const std::size_t rows = x.rows();
  if (rows == 0) argument_error(algorithm, "the matrix has no rows");
  const auto extent = [](const auto& m) {
    return m.rows() == 0 || m.cols() == 0 ? 0 : ((m.rows() - 1) * m.ld() + m.cols());
  };
  topk_check(algorithm, x.data(), extent(x) * sizeof(T), k, x.cols(), values.data(),
             extent(values) * sizeof(T), indices.data(), extent(indices) * sizeof(std::int64_t));
  if (values.rows() != rows || values.cols() != k || indices.rows() != rows ||
      indices.cols() != k) {
    argument_error(algorithm, "the outputs are " + std::to_string(values.rows()) + " x " +
                                  std::to_string(values.cols()) + " and " +
                                  std::to_string(indices.rows()) + " x " +
                                  std::to_string(indices.cols()) + ", they must be " +
                                  std::to_string(rows) + " x " + std::to_string(k));
  }
}

}  // namespace detail

template <class R, class OV, class OI>
void topk(host_backend backend, const R& x, std::size_t k, OV&& values, OI&& indices,
          topk_end end = largest) {
  const auto in = detail::host_span(x);
  const auto v = detail::writable_host_span(values);
  const auto ix = detail::writable_host_span(indices);
  detail::topk_check_array(in, k, v, ix);
  host_impl::topk(backend, in.data(), in.size(), k, end == largest, v.data(), ix.data());
}

template <class R, class OV, class OI>
void topk(cuda_backend backend, const R& x, std::size_t k, OV&& values, OI&& indices,
          topk_end end = largest) {
  const auto in = as_device_span(x);
  const auto v = writable_device_span(values);
  const auto ix = writable_device_span(indices);
  detail::topk_check_array(in, k, v, ix);
  using T = std::remove_const_t<typename decltype(in)::element_type>;
  detail::cuda_topk_checked<T>("topk", in.data(), 1, in.size(), in.size(), k, end == largest,
                               v.data(), k, ix.data(), k, backend.stream);
}

template <class T>
void topk_rows(host_backend backend, matrix_view<const T> x, std::size_t k,
               matrix_view<std::remove_const_t<T>> values, matrix_view<std::int64_t> indices,
               topk_end end = largest) {
  detail::topk_check_rows(x, k, values, indices);
  host_impl::topk_rows(backend, x.data(), x.rows(), x.cols(), x.ld(), k, end == largest,
                       values.data(), values.ld(), indices.data(), indices.ld());
}

template <class T>
void topk_rows(host_backend backend, matrix_view<T> x, std::size_t k,
               matrix_view<std::remove_const_t<T>> values, matrix_view<std::int64_t> indices,
               topk_end end = largest) requires(!std::is_const_v<T>) {
  topk_rows(backend, matrix_view<const T>(x), k, values, indices, end);
}

template <class T>
void topk_rows(cuda_backend backend, device_matrix_view<T> x, std::size_t k,
               device_matrix_view<std::remove_const_t<T>> values,
               device_matrix_view<std::int64_t> indices, topk_end end = largest) {
  detail::topk_check_rows(x, k, values, indices);
  detail::cuda_topk_checked<std::remove_const_t<T>>(
      "topk_rows", x.data(), x.rows(), x.cols(), x.ld(), k, end == largest, values.data(),
      values.ld(), indices.data(), indices.ld(), backend.stream);
}

}  // namespace gpuprim
