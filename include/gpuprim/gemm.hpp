// Dense matrix multiply: C = alpha op(A) op(B) + beta C, for row-major
// matrices with leading dimensions (gp::matrix_view / gp::device_matrix_view,
// gpuprim/core/matrix_view.hpp), one product or a strided batch of them.
//
//   gp::gemm(gp::host, A, B, C);                        // C = A B
//   gp::gemm(gp::cuda.on(s), dA, dB, dC, 2.0f, 1.0f,    // C = 2 A^T B + C
//            gp::matrix_op::transpose, gp::matrix_op::none);
//   gp::gemm(gp::cuda, dA, dB, dC, 1.0f, 0.0f, gp::matrix_op::none, gp::matrix_op::none,
//            gp::precision::tf32);                     // fp32 on tensor cores, if asked
//   gp::gemm_batched(gp::cuda, dA, m * k, dB, k * n, dC, m * n, batch);  // strided batch
//
// Types (A, B -> C, alpha and beta in C's type): float -> float,
// double -> double, gp::bfloat16 -> float and gp::half -> float (inputs in
// 16 bits, products and sums in fp32, output fp32).
//
// Semantics, for every backend:
//  - op(A) is m x k, op(B) is k x n, C is m x n, else std::invalid_argument
//    naming the shapes. Zero-sized dimensions are fine: m or n = 0 does
//    nothing; k = 0 gives C = beta C.
//  - beta = 0 means C is not read (NaN or garbage in C does not reach the
//    result); BLAS's rule. alpha = 0 gives beta C without reading A or B.
//  - C must not overlap A or B (std::invalid_argument); A and B may overlap.
//  - TF32 is used only under precision::tf32, and only on the GPU for float
//    matrices (the host computes full fp32); asking for it with other types
//    is std::invalid_argument.
//  - Bad arguments throw before anything is written.
// The GPU path is cuBLAS (cublasGemmEx; cublasLtMatmul for bfloat16 and half
// inputs, cublasGemmEx when cuBLASLt has no algorithm for the layout), on
// the backend's stream, without synchronizing. The host path is
// OpenBLAS through CBLAS when the library was built with it (see
// detail::host_blas_name()). The teaching kernels, naive to tensor cores,
// are the ladder (lab/ladder/ladder.hpp, gemm_rungs).
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/host/gemm.hpp"

namespace gpuprim {

// (input type, output type) pairs gemm takes.
template <class In, class Out>
concept gemm_types = (std::is_same_v<In, float> && std::is_same_v<Out, float>) ||
                     (std::is_same_v<In, double> && std::is_same_v<Out, double>) ||
                     (std::is_same_v<In, bfloat16> && std::is_same_v<Out, float>) ||
                     (std::is_same_v<In, half> && std::is_same_v<Out, float>);

namespace detail {

#if GPUPRIM_HAS_CUDA
// src/gemm/cublas_gemm.cpp: enqueues `problem` on `stream` through cuBLAS.
void cuda_gemm(stream_t stream, gemm_kind kind, const gemm_problem& problem);
#else
inline void cuda_gemm(stream_t, gemm_kind, const gemm_problem&) {
  no_cuda_backend("gemm");
}
#endif

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
  gemm_problem p;
  p.op_a = op_a;
  p.op_b = op_b;
  p.mode = mode;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = a.data();
  p.lda = a.ld();
  p.b = b.data();
  p.ldb = b.ld();
  p.c = c.data();
  p.ldc = c.ld();
  p.alpha = alpha;
  p.beta = beta;
  p.batch = batch;
  p.stride_a = stride_a;
  p.stride_b = stride_b;
  p.stride_c = stride_c;
  return p;
}

}  // namespace detail

// ---- host -------------------------------------------------------------------

template <class A, class B, class C>
requires gemm_types<std::remove_const_t<A>, C> &&
    std::is_same_v<std::remove_const_t<A>, std::remove_const_t<B>>
void gemm(host_backend backend, matrix_view<A> a, matrix_view<B> b, matrix_view<C> c,
          std::type_identity_t<C> alpha, std::type_identity_t<C> beta,
          matrix_op op_a = matrix_op::none, matrix_op op_b = matrix_op::none,
          precision mode = precision::standard) {
  using In = std::remove_const_t<A>;
  const auto p = detail::checked_gemm("gemm", a, b, c, alpha, beta, op_a, op_b, mode,
                                      std::is_same_v<In, float>);
  detail::host_gemm(backend, detail::gemm_kind_of<In>(), p);
}

// C = A B.
template <class A, class B, class C>
requires gemm_types<std::remove_const_t<A>, C> &&
    std::is_same_v<std::remove_const_t<A>, std::remove_const_t<B>>
void gemm(host_backend backend, matrix_view<A> a, matrix_view<B> b, matrix_view<C> c) {
  gemm(backend, a, b, c, C{1}, C{0});
}

// C[i] = alpha op(A[i]) op(B[i]) + beta C[i], i < batch, where X[i] is the
// matrix of X's shape at X.data() + i * stride_x (elements).
template <class A, class B, class C>
requires gemm_types<std::remove_const_t<A>, C> &&
    std::is_same_v<std::remove_const_t<A>, std::remove_const_t<B>>
void gemm_batched(host_backend backend, matrix_view<A> a, std::size_t stride_a, matrix_view<B> b,
                  std::size_t stride_b, matrix_view<C> c, std::size_t stride_c, std::size_t batch,
                  std::type_identity_t<C> alpha = C{1}, std::type_identity_t<C> beta = C{0},
                  matrix_op op_a = matrix_op::none, matrix_op op_b = matrix_op::none,
                  precision mode = precision::standard) {
  using In = std::remove_const_t<A>;
  const auto p =
      detail::checked_gemm("gemm_batched", a, b, c, alpha, beta, op_a, op_b, mode,
                           std::is_same_v<In, float>, batch, stride_a, stride_b, stride_c);
  if (batch == 0) return;
  detail::host_gemm(backend, detail::gemm_kind_of<In>(), p);
}

// ---- CUDA -------------------------------------------------------------------

template <class A, class B, class C>
requires gemm_types<std::remove_const_t<A>, C> &&
    std::is_same_v<std::remove_const_t<A>, std::remove_const_t<B>>
void gemm(cuda_backend backend, device_matrix_view<A> a, device_matrix_view<B> b,
          device_matrix_view<C> c, std::type_identity_t<C> alpha, std::type_identity_t<C> beta,
          matrix_op op_a = matrix_op::none, matrix_op op_b = matrix_op::none,
          precision mode = precision::standard) {
  using In = std::remove_const_t<A>;
  const auto p = detail::checked_gemm("gemm", a, b, c, alpha, beta, op_a, op_b, mode,
                                      std::is_same_v<In, float>);
  detail::cuda_gemm(backend.stream, detail::gemm_kind_of<In>(), p);
}

template <class A, class B, class C>
requires gemm_types<std::remove_const_t<A>, C> &&
    std::is_same_v<std::remove_const_t<A>, std::remove_const_t<B>>
void gemm(cuda_backend backend, device_matrix_view<A> a, device_matrix_view<B> b,
          device_matrix_view<C> c) {
  gemm(backend, a, b, c, C{1}, C{0});
}

template <class A, class B, class C>
requires gemm_types<std::remove_const_t<A>, C> &&
    std::is_same_v<std::remove_const_t<A>, std::remove_const_t<B>>
void gemm_batched(cuda_backend backend, device_matrix_view<A> a, std::size_t stride_a,
                  device_matrix_view<B> b, std::size_t stride_b, device_matrix_view<C> c,
                  std::size_t stride_c, std::size_t batch, std::type_identity_t<C> alpha = C{1},
                  std::type_identity_t<C> beta = C{0}, matrix_op op_a = matrix_op::none,
                  matrix_op op_b = matrix_op::none, precision mode = precision::standard) {
  using In = std::remove_const_t<A>;
  const auto p =
      detail::checked_gemm("gemm_batched", a, b, c, alpha, beta, op_a, op_b, mode,
                           std::is_same_v<In, float>, batch, stride_a, stride_b, stride_c);
  if (batch == 0) return;
  detail::cuda_gemm(backend.stream, detail::gemm_kind_of<In>(), p);
}

}  // namespace gpuprim
