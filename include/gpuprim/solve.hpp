// Iterative solvers of A x = b: Richardson, Jacobi, conjugate gradients
// (symmetric positive definite A) and BiCGStab (general A), each with an
// optional diagonal (Jacobi) preconditioner, on CSR and on dense matrices,
// on both backends.
//
//   gp::solve_options opts;
//   opts.tolerance = 1e-10;
//   opts.precond = gp::preconditioner::jacobi;
//   gp::solve_result r = gp::solve_cg(gp::host, A.view(), b, x, opts);
//   r = gp::solve_bicgstab(gp::cuda, dA.view(), d_b, d_x);          // x = solution
//   r = gp::solve_richardson(gp::host, gp::matrix_view<const double>(a, n, n), b, x, opts);
//   r = gp::solve(gp::cuda, gp::solve_method::jacobi, dA, d_b, d_x, opts);
//
// Semantics, for every backend:
//  - A is square (n x n), b and x have n elements (std::invalid_argument
//    otherwise, and for a zero diagonal entry when the Jacobi iteration or
//    preconditioner needs its inverse, a negative or NaN tolerance, omega
//    <= 0 for Richardson / Jacobi, or b and x overlapping), thrown before x
//    is written.
//  - x is the initial guess when options.use_initial_guess, else the
//    iteration starts from 0; on return it holds the last iterate.
//  - The result says how many iterations ran, the relative residual
//    ||b - A x|| / ||b|| of the returned x (computed, not the recurrence's
//    estimate), whether it met the tolerance, whether a breakdown (a
//    division by zero in CG or BiCGStab) stopped it, and, on request, the
//    residual after every iteration. A breakdown is never reported as
//    convergence, and x is then the last iterate before it (never NaN from
//    the breakdown itself). b = 0 gives x = 0 at once.
//  - Dot products are accumulated in double for both float and double
//    data; matrix-vector products in T.
//  - GPU: every iteration runs on the device without copies to the host;
//    the scalars (alpha, beta, ...) stay in device memory, and the host
//    looks at the residual every options.check_every iterations (see
//    gpuprim/cuda/device/device_solve.cuh for the kernels and fusions).
//    From plain C++ the GPU solvers are precompiled for float and double,
//    int32 and int64 indices, and dense matrices.
#pragma once

#include <cmath>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/host/solve.hpp"
#include "gpuprim/solve_types.hpp"
#include "gpuprim/sparse.hpp"

namespace gpuprim {

namespace detail {

#if GPUPRIM_HAS_CUDA
// Defined in gpuprim/cuda/device/device_solve.cuh (src/solve/*.cu). Op is
// device_csr_view<T, I> or device_matrix_view<const T>. Checks the diagonal
// when it is needed (std::invalid_argument before x is written).
template <class T, class Op>
solve_result cuda_solve(solve_method method, const Op& A, const T* b, T* x, std::size_t n,
                        const solve_options& opts, std::size_t max_iterations, stream_t stream);
#else
template <class T, class Op>
solve_result cuda_solve(solve_method, const Op&, const T*, T*, std::size_t, const solve_options&,
                        std::size_t, stream_t) {
  no_cuda_backend("solve");
}
#endif

}  // namespace detail

namespace solve_detail {

inline void check(solve_method method, std::size_t rows, std::size_t cols, std::size_t b_size,
                  std::size_t x_size, bool overlap, const solve_options& opts) {
  const std::string w = std::string("gpuprim::solve_") + name_of(method) + ": ";
  if (rows != cols) {
    throw std::invalid_argument(w + "the matrix is " + std::to_string(rows) + " x " +
                                std::to_string(cols) + "; it must be square");
  }
  if (b_size != rows) {
    throw std::invalid_argument(w + "b has " + std::to_string(b_size) +
                                " elements; the matrix has " + std::to_string(rows) + " rows");
  }
  if (x_size != rows) {
    throw std::invalid_argument(w + "x has " + std::to_string(x_size) +
                                " elements; the matrix has " + std::to_string(rows) + " rows");
  }
  if (overlap) throw std::invalid_argument(w + "b and x overlap");
  if (!(opts.tolerance >= 0)) {
    throw std::invalid_argument(w + "the tolerance must be >= 0 (got " +
                                std::to_string(opts.tolerance) + ")");
  }
  if ((method == solve_method::richardson || method == solve_method::jacobi) &&
      !(opts.omega > 0 && std::isfinite(opts.omega))) {
    throw std::invalid_argument(w + "omega must be positive and finite (got " +
                                std::to_string(opts.omega) + ")");
  }
}

inline bool needs_diagonal(solve_method method, const solve_options& opts) {
  return method == solve_method::jacobi || opts.precond == preconditioner::jacobi;
}

inline std::size_t max_iterations(const solve_options& opts, std::size_t n) {
  return opts.max_iterations ? opts.max_iterations : 10 * n;
}

template <class T, class Op>
solve_result host_solve(solve_method method, const Op& op, host_backend backend,
                        std::span<const T> b, std::span<T> x, const solve_options& opts) {
  const std::size_t n = op.n;
  if (needs_diagonal(method, opts)) {
    for (std::size_t i = 0; i < n; ++i) {
      const T d = op.diagonal(i);
      if (d == T(0) || !std::isfinite(d)) {
        throw std::invalid_argument(std::string("gpuprim::solve_") + name_of(method) +
                                    ": the diagonal entry of row " + std::to_string(i) + " is " +
                                    (d == T(0) ? std::string("zero") : std::to_string(d)) +
                                    " (the Jacobi iteration and preconditioner divide by it)");
      }
    }
  }
  solve_result res;
  if (!opts.use_initial_guess)
    host_detail::parallel_for(backend, n, [&](std::size_t i) { x[i] = T(0); });
  const double b2 = host_detail::parallel_sum(
      backend, n, [&](std::size_t i) { return double(b[i]) * double(b[i]); });
  const double b_norm = std::sqrt(b2);
  if (b_norm == 0) {
    host_detail::parallel_for(backend, n, [&](std::size_t i) { x[i] = T(0); });
    res.converged = true;
    if (opts.keep_history) res.history.push_back(0.0);
    return res;
  }
  const std::size_t max_iter = max_iterations(opts, n);
  switch (method) {
    case solve_method::cg:
      host_detail::cg(op, backend, b.data(), x.data(), opts, max_iter, b_norm, res);
      break;
    case solve_method::bicgstab:
      host_detail::bicgstab(op, backend, b.data(), x.data(), opts, max_iter, b_norm, res);
      break;
    case solve_method::jacobi:
      host_detail::richardson(op, backend, b.data(), x.data(), opts, max_iter, b_norm, true, res);
      break;
    case solve_method::richardson:
      host_detail::richardson(op, backend, b.data(), x.data(), opts, max_iter, b_norm,
                              opts.precond == preconditioner::jacobi, res);
      break;
  }
  if (method == solve_method::cg || method == solve_method::bicgstab) {
    std::vector<T> r(n);
    res.residual =
        std::sqrt(host_detail::true_residual(op, backend, n, b.data(), x.data(), r.data())) /
        b_norm;
    if (res.converged && !(res.residual <= opts.tolerance)) res.converged = false;
  }
  if (!res.converged && res.message.empty() && !res.breakdown) {
    res.message = "not converged after " + std::to_string(res.iterations) + " iterations";
  }
  return res;
}

}  // namespace solve_detail

// ---- host ---------------------------------------------------------------------

template <class T, class I>
solve_result solve(host_backend backend, solve_method method, const csr_view<T, I>& A,
                   std::type_identity_t<std::span<const T>> b, std::type_identity_t<std::span<T>> x,
                   const solve_options& opts = {}) {
  solve_detail::check(method, A.rows, A.cols, b.size(), x.size(),
                      sparse_detail::overlap(b.data(), b.size(), x.data(), x.size()), opts);
  if (A.row_offsets.size() != A.rows + 1) {
    throw std::invalid_argument("gpuprim::solve: row_offsets has " +
                                std::to_string(A.row_offsets.size()) + " entries, not rows + 1");
  }
  const host_detail::csr_operator<T, I> op{backend, A.rows, A.row_offsets.data(),
                                           A.col_indices.data(), A.values.data()};
  return solve_detail::host_solve<T>(method, op, backend, b, x, opts);
}
template <class T, class I>
solve_result solve(host_backend backend, solve_method method, const csr_matrix<T, I>& A,
                   std::type_identity_t<std::span<const T>> b, std::type_identity_t<std::span<T>> x,
                   const solve_options& opts = {}) {
  return solve(backend, method, A.view(), b, x, opts);
}
// Dense, row-major (the lecture's case).
template <class T>
solve_result solve(host_backend backend, solve_method method, matrix_view<const T> A,
                   std::type_identity_t<std::span<const T>> b, std::type_identity_t<std::span<T>> x,
                   const solve_options& opts = {}) {
  solve_detail::check(method, A.rows(), A.cols(), b.size(), x.size(),
                      sparse_detail::overlap(b.data(), b.size(), x.data(), x.size()), opts);
  const host_detail::dense_operator<T> op{backend, A, A.rows()};
  return solve_detail::host_solve<T>(method, op, backend, b, x, opts);
}
template <class T>
solve_result solve(host_backend backend, solve_method method, matrix_view<T> A,
                   std::type_identity_t<std::span<const T>> b, std::type_identity_t<std::span<T>> x,
                   const solve_options& opts = {}) requires(!std::is_const_v<T>) {
  return solve(backend, method, matrix_view<const T>(A), b, x, opts);
}

// ---- CUDA -----------------------------------------------------------------------

template <class T, class I>
solve_result solve(cuda_backend backend, solve_method method, const device_csr_view<T, I>& A,
                   std::type_identity_t<device_span<const T>> b,
                   std::type_identity_t<device_span<T>> x, const solve_options& opts = {}) {
  solve_detail::check(method, A.rows, A.cols, b.size(), x.size(),
                      sparse_detail::overlap(b.data(), b.size(), x.data(), x.size()), opts);
  device_csr_view<T, I> a = A;
  if (!a.stats.known && a.rows) {
    a.stats = detail::cuda_row_stats<I>(a.rows, a.row_offsets.data(), backend.stream);
  }
  return detail::cuda_solve<T>(method, a, b.data(), x.data(), A.rows, opts,
                               solve_detail::max_iterations(opts, A.rows), backend.stream);
}
template <class T, class I>
solve_result solve(cuda_backend backend, solve_method method, const device_csr_matrix<T, I>& A,
                   std::type_identity_t<device_span<const T>> b,
                   std::type_identity_t<device_span<T>> x, const solve_options& opts = {}) {
  return solve(backend, method, A.view(), b, x, opts);
}
template <class T>
solve_result solve(cuda_backend backend, solve_method method, device_matrix_view<const T> A,
                   std::type_identity_t<device_span<const T>> b,
                   std::type_identity_t<device_span<T>> x, const solve_options& opts = {}) {
  solve_detail::check(method, A.rows(), A.cols(), b.size(), x.size(),
                      sparse_detail::overlap(b.data(), b.size(), x.data(), x.size()), opts);
  return detail::cuda_solve<T>(method, A, b.data(), x.data(), A.rows(), opts,
                               solve_detail::max_iterations(opts, A.rows()), backend.stream);
}
template <class T>
solve_result solve(cuda_backend backend, solve_method method, device_matrix_view<T> A,
                   std::type_identity_t<device_span<const T>> b,
                   std::type_identity_t<device_span<T>> x,
                   const solve_options& opts = {}) requires(!std::is_const_v<T>) {
  return solve(backend, method, device_matrix_view<const T>(A), b, x, opts);
}

// ---- one name per method ------------------------------------------------------------

template <class Backend, class Matrix, class B, class X>
solve_result solve_cg(Backend backend, const Matrix& A, B&& b, X&& x,
                      const solve_options& opts = {}) {
  return solve(backend, solve_method::cg, A, std::forward<B>(b), std::forward<X>(x), opts);
}
template <class Backend, class Matrix, class B, class X>
solve_result solve_bicgstab(Backend backend, const Matrix& A, B&& b, X&& x,
                            const solve_options& opts = {}) {
  return solve(backend, solve_method::bicgstab, A, std::forward<B>(b), std::forward<X>(x), opts);
}
template <class Backend, class Matrix, class B, class X>
solve_result solve_jacobi(Backend backend, const Matrix& A, B&& b, X&& x,
                          const solve_options& opts = {}) {
  return solve(backend, solve_method::jacobi, A, std::forward<B>(b), std::forward<X>(x), opts);
}
template <class Backend, class Matrix, class B, class X>
solve_result solve_richardson(Backend backend, const Matrix& A, B&& b, X&& x,
                              const solve_options& opts = {}) {
  return solve(backend, solve_method::richardson, A, std::forward<B>(b), std::forward<X>(x), opts);
}

}  // namespace gpuprim
