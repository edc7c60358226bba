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
//    estimate), why it stopped (solve_status, and a message) and, on
//    request, the residual after every iteration. A breakdown is never
//    reported as convergence, and x is then the last iterate before it
//    (never NaN from the breakdown itself). b = 0 gives x = 0 at once.
//  - Stopping rules, checked before the first iteration and after every
//    one, in this order: converged when ||r|| < max(tolerance ||b||, atol)
//    (SciPy's test with rtol = tolerance), or r = 0 exactly; diverged when
//    ||r|| is not finite (NaN or inf in b, x0 or A ends the solve there,
//    at iteration 0 when they are there from the start) or more than
//    divergence_growth (1e8) times ||r_0|| ("diverged at iteration k"; x
//    is that iterate); stagnated when ||r|| has not fallen below (1 -
//    stagnation_improvement) times its last recorded low within
//    stagnation_window iterations (defaults 1e-3 and 500: a method must
//    average a 2e-6 relative decrease per iteration); then the iteration
//    limit (max_iterations 0: no iteration, x0 and its residual).
//    Plain Richardson does not divide by the diagonal and takes a zero
//    one; the stopping rules end such runs. options.progress, when set, is
//    called once per progress_interval seconds of a long solve.
//  - CG and BiCGStab follow SciPy's iterations: CG goes on where p.Ap < 0
//    (an indefinite matrix) and breaks down only on a division by zero;
//    BiCGStab breaks down where SciPy's does (|rhat.r| or |omega| below
//    eps(T)^2, rhat.Ap = 0), with solve_result::breakdown_cause saying
//    which. Where SciPy trusts the recurrence's residual, CG and BiCGStab
//    here confirm it with b - A x and go on from x when it falls short.
//  - is_symmetric(A) (CSR: O(nnz + n); dense: O(n^2)) tells whether CG
//    can apply: CG needs a symmetric positive definite matrix.
//  - Dot products are accumulated in double for both float and double
//    data; matrix-vector products in T.
//  - GPU: every iteration runs on the device without copies to the host;
//    the scalars (alpha, beta, ...) stay in device memory, and the host
//    looks at the residual every options.check_every iterations (see
//    gpuprim/cuda/device/device_solve.cuh for the kernels and fusions).
//    From plain C++ the GPU solvers are precompiled for float and double,
//    int32 and int64 indices, and dense matrices.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/solve/solve.hpp"
#include "gpuprim/host/solve.hpp"
#include "gpuprim/solve_types.hpp"
#include "gpuprim/sparse.hpp"

namespace gpuprim {

namespace detail::solve {

// The host run: the diagonal's check, the zero right-hand side, then the
// method, and the true residual of the Krylov methods.
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
    host_impl::parallel_for(backend, n, [&](std::size_t i) { x[i] = T(0); });
  const double b2 = host_impl::parallel_sum(
      backend, n, [&](std::size_t i) { return double(b[i]) * double(b[i]); });
  const double b_norm = std::sqrt(b2);
  if (b_norm == 0) {
    host_impl::parallel_for(backend, n, [&](std::size_t i) { x[i] = T(0); });
    res.converged = true;
    res.status = solve_status::converged;
    if (opts.keep_history) res.history.push_back(0.0);
    return res;
  }
  const std::size_t max_iter = max_iterations(opts, n);
  // Every method's state, and the inverse diagonal (ones where no Jacobi
  // step or preconditioner divides by the diagonal).
  host_impl::solver_state<T> state{backend, n, b_norm, opts, res};
  const std::vector<T> dinv = host_impl::inverse_diagonal<T>(op, n, needs_diagonal(method, opts));
  switch (method) {
    case solve_method::cg:
      host_impl::cg(op, state, b.data(), x.data(), dinv, max_iter);
      break;
    case solve_method::bicgstab:
      host_impl::bicgstab(op, state, b.data(), x.data(), dinv, max_iter);
      break;
    case solve_method::jacobi:
    case solve_method::richardson:
      host_impl::richardson(op, state, b.data(), x.data(), dinv, max_iter);
      break;
  }
  if (method == solve_method::cg || method == solve_method::bicgstab) {
    std::vector<T> r(n);
    res.residual =
        std::sqrt(host_impl::true_residual(op, backend, n, b.data(), x.data(), r.data())) /
        b_norm;
    if (res.converged && !relative_residual_met(res.residual, opts, b_norm)) res.converged = false;
  }
  finish(res);
  return res;
}

}  // namespace detail::solve

// ---- host ---------------------------------------------------------------------

template <class T, class I>
solve_result solve(host_backend backend, solve_method method, const csr_view<T, I>& A,
                   std::type_identity_t<std::span<const T>> b, std::type_identity_t<std::span<T>> x,
                   const solve_options& opts = {}) {
  detail::solve::check(method, A.rows, A.cols, b.size(), x.size(),
                      detail::sparse::overlap(b.data(), b.size(), x.data(), x.size()), opts);
  if (A.row_offsets.size() != A.rows + 1) {
    throw std::invalid_argument("gpuprim::solve: row_offsets has " +
                                std::to_string(A.row_offsets.size()) + " entries, not rows + 1");
  }
  const host_impl::csr_operator<T, I> op{backend, A.rows, A.row_offsets.data(),
                                           A.col_indices.data(), A.values.data()};
  return detail::solve::host_solve<T>(method, op, backend, b, x, opts);
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
  detail::solve::check(method, A.rows(), A.cols(), b.size(), x.size(),
                      detail::sparse::overlap(b.data(), b.size(), x.data(), x.size()), opts);
  const host_impl::dense_operator<T> op{backend, A, A.rows()};
  return detail::solve::host_solve<T>(method, op, backend, b, x, opts);
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
  detail::solve::check(method, A.rows, A.cols, b.size(), x.size(),
                      detail::sparse::overlap(b.data(), b.size(), x.data(), x.size()), opts);
  device_csr_view<T, I> a = A;
  if (!a.stats.known && a.rows) {
    a.stats = detail::on_cuda("spmv", [&] {
      return detail::cuda_row_stats<I>(a.rows, a.row_offsets.data(), backend.stream);
    });
  }
#if !defined(__CUDACC__)
  static_assert(detail::precompiled_solve<T, device_csr_view<T, I>>,
                "gpuprim: this value/index pair of solve is not precompiled into the library");
#endif
  return detail::on_cuda("solve", [&] {
    return detail::cuda_solve<T>(method, a, b.data(), x.data(), A.rows, opts,
                                 detail::solve::max_iterations(opts, A.rows), backend.stream);
  });
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
  detail::solve::check(method, A.rows(), A.cols(), b.size(), x.size(),
                      detail::sparse::overlap(b.data(), b.size(), x.data(), x.size()), opts);
  return detail::on_cuda("solve", [&] {
    return detail::cuda_solve<T>(method, A, b.data(), x.data(), A.rows(), opts,
                                 detail::solve::max_iterations(opts, A.rows()), backend.stream);
  });
}
template <class T>
solve_result solve(cuda_backend backend, solve_method method, device_matrix_view<T> A,
                   std::type_identity_t<device_span<const T>> b,
                   std::type_identity_t<device_span<T>> x,
                   const solve_options& opts = {}) requires(!std::is_const_v<T>) {
  return solve(backend, method, device_matrix_view<const T>(A), b, x, opts);
}

// ---- symmetry -------------------------------------------------------------------------

// Whether a square matrix equals its transpose: every a(i, j) against
// a(j, i) (duplicates summed), equal within max(1e-10, 4 eps(T)) of their
// magnitude. O(nnz + n) time and memory for CSR (a counting transpose and
// one pass over the rows), O(n^2) for dense. CG needs a symmetric positive
// definite matrix; this is the cheap half of that (`gpuprim solve` runs it
// when CG fails).
template <class T, class I>
bool is_symmetric(const csr_view<T, I>& A) {
  if (A.rows != A.cols || A.row_offsets.size() != A.rows + 1) return false;
  const std::size_t n = A.rows;
  const std::size_t nnz = static_cast<std::size_t>(A.row_offsets[n]);
  auto col = [&](std::size_t k) { return static_cast<std::size_t>(A.col_indices[k]); };
  for (std::size_t k = 0; k < nnz; ++k)
    if (col(k) >= n) return false;
  // The transpose by counting: row c of it holds (r, a(r, c)).
  std::vector<std::size_t> start(n + 1, 0);
  for (std::size_t k = 0; k < nnz; ++k)
    ++start[col(k) + 1];
  for (std::size_t c = 0; c < n; ++c)
    start[c + 1] += start[c];
  std::vector<std::size_t> t_row(nnz), fill(start.begin(), start.end() - 1);
  std::vector<double> t_val(nnz);
  for (std::size_t r = 0; r < n; ++r) {
    for (auto k = static_cast<std::size_t>(A.row_offsets[r]);
         k < static_cast<std::size_t>(A.row_offsets[r + 1]); ++k) {
      const std::size_t at = fill[col(k)]++;
      t_row[at] = r;
      t_val[at] = static_cast<double>(A.values[k]);
    }
  }
  const double tol = std::max(1e-10, 4.0 * static_cast<double>(std::numeric_limits<T>::epsilon()));
  // Row i of A minus row i of the transpose, in a dense accumulator.
  std::vector<double> diff(n, 0.0), size(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto a0 = static_cast<std::size_t>(A.row_offsets[i]);
    const auto a1 = static_cast<std::size_t>(A.row_offsets[i + 1]);
    for (std::size_t k = a0; k < a1; ++k) {
      diff[col(k)] += static_cast<double>(A.values[k]);
      size[col(k)] += std::abs(static_cast<double>(A.values[k]));
    }
    for (std::size_t k = start[i]; k < start[i + 1]; ++k) {
      diff[t_row[k]] -= t_val[k];
      size[t_row[k]] += std::abs(t_val[k]);
    }
    bool equal = true;
    auto settle = [&](std::size_t c) {
      if (std::abs(diff[c]) > tol * size[c]) equal = false;
      diff[c] = size[c] = 0.0;
    };
    for (std::size_t k = a0; k < a1; ++k)
      settle(col(k));
    for (std::size_t k = start[i]; k < start[i + 1]; ++k)
      settle(t_row[k]);
    if (!equal) return false;
  }
  return true;
}
template <class T, class I>
bool is_symmetric(const csr_matrix<T, I>& A) {
  return is_symmetric(A.view());
}
template <class T>
bool is_symmetric(matrix_view<const T> A) {
  if (A.rows() != A.cols()) return false;
  const double tol = std::max(1e-10, 4.0 * static_cast<double>(std::numeric_limits<T>::epsilon()));
  for (std::size_t i = 0; i < A.rows(); ++i) {
    for (std::size_t j = i + 1; j < A.cols(); ++j) {
      const double u = static_cast<double>(A(i, j)), v = static_cast<double>(A(j, i));
      if (std::abs(u - v) > tol * (std::abs(u) + std::abs(v))) return false;
    }
  }
  return true;
}

// ---- one name per method ------------------------------------------------------------

// solve_cg(backend, A, b, x, opts = {}) is solve(backend, solve_method::cg,
// A, b, x, opts); likewise the others.
inline constexpr detail::solve_with<solve_method::cg> solve_cg{};
inline constexpr detail::solve_with<solve_method::bicgstab> solve_bicgstab{};
inline constexpr detail::solve_with<solve_method::jacobi> solve_jacobi{};
inline constexpr detail::solve_with<solve_method::richardson> solve_richardson{};

}  // namespace gpuprim
