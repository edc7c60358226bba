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
#include "gpuprim/detail/gemm/gemm.hpp"
#include "gpuprim/gemm_types.hpp"
#include "gpuprim/host/gemm.hpp"

namespace gpuprim {

// matrix_op { none, transpose } and precision { standard, tf32 } are in
// gpuprim/gemm_types.hpp.

// (input type, output type) pairs gemm takes.
template <class In, class Out>
concept gemm_types = (std::is_same_v<In, float> && std::is_same_v<Out, float>) ||
                     (std::is_same_v<In, double> && std::is_same_v<Out, double>) ||
                     (std::is_same_v<In, bfloat16> && std::is_same_v<Out, float>) ||
                     (std::is_same_v<In, half> && std::is_same_v<Out, float>);

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
  detail::on_cuda("gemm",
                  [&] { detail::cuda_gemm(backend.stream, detail::gemm_kind_of<In>(), p); });
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
  detail::on_cuda("gemm",
                  [&] { detail::cuda_gemm(backend.stream, detail::gemm_kind_of<In>(), p); });
}

}  // namespace gpuprim
