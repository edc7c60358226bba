// The matrix multiply's shared detail: the checks of shapes, strides and
// overlap both backends make (the entry points are in entry.hpp).
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/gemm/entry.hpp"
#include "gpuprim/detail/gemm/plan.hpp"

namespace gpuprim::detail {

template <class In>
constexpr gemm_kind gemm_kind_of() {
  if constexpr (std::is_same_v<In, float>) {
    return gemm_kind::f32;
  } else if constexpr (std::is_same_v<In, double>) {
    return gemm_kind::f64;
  } else if constexpr (std::is_same_v<In, bfloat16>) {
    return gemm_kind::bf16;
  } else {
    return gemm_kind::f16;
  }
}

inline std::string shape_text(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// The view's memory over a whole batch: [data, data + (batch - 1) * stride + extent).
template <class V>
struct batch_extent {
  const unsigned char* first;
  std::size_t bytes;
};

template <class V>
batch_extent<V> extent_of(const V& v, std::size_t batch, std::size_t stride) {
  const std::size_t elements = v.empty() || batch == 0 ? 0 : (batch - 1) * stride + v.extent();
  return {reinterpret_cast<const unsigned char*>(v.data()), elements * sizeof(*v.data())};
}

template <class X, class Y>
bool extents_overlap(const batch_extent<X>& x, const batch_extent<Y>& y) {
  if (x.bytes == 0 || y.bytes == 0) return false;
  return x.first < y.first + y.bytes && y.first < x.first + x.bytes;
}

// Checks shapes, strides and aliasing; returns the problem for the backends.
template <class VA, class VB, class VC>
gemm_problem checked_gemm(const char* algorithm, const VA& a, const VB& b, const VC& c,
                          double alpha, double beta, matrix_op op_a, matrix_op op_b, precision mode,
                          bool is_float, std::size_t batch = 1, std::size_t stride_a = 0,
                          std::size_t stride_b = 0, std::size_t stride_c = 0) {
  const std::string where = std::string("gpuprim::") + algorithm + ": ";
  const bool ta = op_a == matrix_op::transpose;
  const bool tb = op_b == matrix_op::transpose;
  const std::size_t m = ta ? a.cols() : a.rows();
  const std::size_t k = ta ? a.rows() : a.cols();
  const std::size_t kb = tb ? b.cols() : b.rows();
  const std::size_t n = tb ? b.rows() : b.cols();
  if (k != kb) {
    throw std::invalid_argument(where + "op(A) is " + shape_text(m, k) + " and op(B) is " +
                                shape_text(kb, n) + ": the inner dimensions differ");
  }
  if (c.rows() != m || c.cols() != n) {
    throw std::invalid_argument(where + "C is " + shape_text(c.rows(), c.cols()) +
                                "; op(A) op(B) is " + shape_text(m, n));
  }
  if (mode == precision::tf32 && !is_float) {
    throw std::invalid_argument(where + "precision::tf32 is for float matrices");
  }
  if (batch > 1) {
    const auto check_stride = [&](const char* name, std::size_t stride, std::size_t extent) {
      if (extent != 0 && stride > (std::numeric_limits<std::size_t>::max() - extent) / batch) {
        throw std::invalid_argument(where + "the batch of " + name + " does not fit in memory");
      }
    };
    check_stride("A", stride_a, a.extent());
    check_stride("B", stride_b, b.extent());
    check_stride("C", stride_c, c.extent());
    if (!c.empty() && stride_c < c.extent()) {
      throw std::invalid_argument(where + "stride_c (" + std::to_string(stride_c) +
                                  ") is less than the extent of one C (" +
                                  std::to_string(c.extent()) + "): the outputs would overlap");
    }
  }
  const auto ca = extent_of(a, batch, stride_a);
  const auto cb = extent_of(b, batch, stride_b);
  const auto cc = extent_of(c, batch, stride_c);
  if (extents_overlap(cc, ca) || extents_overlap(cc, cb)) {
    throw std::invalid_argument(where + "C overlaps " + (extents_overlap(cc, ca) ? "A" : "B") +
                                " (the output must not alias an input)");
  }
  // Fields: op_a, op_b, mode, m, n, k, a, lda, b, ldb, c, ldc, alpha, beta, batch, stride_a,
  // stride_b, stride_c.
  return gemm_problem{op_a,   op_b,     mode,   m,     n,    k,     a.data(), a.ld(),   b.data(),
                      b.ld(), c.data(), c.ld(), alpha, beta, batch, stride_a, stride_b, stride_c};
}

// A dimension as a BLAS's 32-bit int; `blas` names that BLAS in the
// message of one too large.
inline int checked_blas_int(std::size_t x, const char* blas) {
  if (x > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("gpuprim::gemm: dimension " + std::to_string(x) + " exceeds " +
                                blas + " 32-bit integers");
  }
  return static_cast<int>(x);
}

}  // namespace gpuprim::detail
