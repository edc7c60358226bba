// The iterative solvers' shared detail: the argument checks, iteration bounds
// and stopping rule both backends use (the host run is in gpuprim/solve.hpp,
// the entry points in entry.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/solve/entry.hpp"
#include "gpuprim/detail/solve/precompiled.hpp"
#include "gpuprim/detail/sparse/csr.hpp"
#include "gpuprim/detail/sparse/spmv.hpp"
#include "gpuprim/solve_types.hpp"

namespace gpuprim {

namespace detail {

// The GPU solvers' row strategy for a CSR matrix (docs/families/solve.md,
// "Solvers"). choose_spmv_kernel's strategy, except that merge_path and
// hot_columns (no per-row epilogue) become a warp per row, and that short rows
// (staged_rows) of at most solve_thread_row_entries entries each, in a
// matrix with an entry, take a thread per row: its loads of a row's
// entries and their gathers are all issued before it waits, which beat
// the staged rows on 5-entry rows (94% against 60% of the copy's
// bandwidth on Poisson 2-D). A longer row would leave one thread walking
// it, so those matrices (and those whose statistics are not known) keep
// the staged rows.
inline constexpr std::size_t solve_thread_row_entries = 5;
inline bool solve_thread_per_row(const csr_row_stats& s) {
  return choose_spmv_kernel(s).kernel == spmv_kernel::staged_rows && s.known && s.nnz > 0 &&
         s.max_row <= solve_thread_row_entries;
}

// The one-method names (gp::solve_cg, ...): gp::solve with the method
// fixed (found by argument-dependent lookup through the backend tag).
template <solve_method Method>
struct solve_with {
  template <class Backend, class Matrix, class B, class X>
  solve_result operator()(Backend backend, const Matrix& A, B&& b, X&& x,
                          const solve_options& opts = {}) const {
    return solve(backend, Method, A, std::forward<B>(b), std::forward<X>(x), opts);
  }
};

}  // namespace detail

namespace detail::solve {

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
  if (!(opts.atol >= 0)) {
    throw std::invalid_argument(w + "atol must be >= 0 (got " + std::to_string(opts.atol) + ")");
  }
  if (!(opts.divergence_growth >= 0)) {
    throw std::invalid_argument(w + "divergence_growth must be >= 0 (got " +
                                std::to_string(opts.divergence_growth) + ")");
  }
  if (!(opts.stagnation_improvement >= 0 && opts.stagnation_improvement < 1)) {
    throw std::invalid_argument(w + "stagnation_improvement must be in [0, 1) (got " +
                                std::to_string(opts.stagnation_improvement) + ")");
  }
  if (opts.progress && !(opts.progress_interval > 0)) {
    throw std::invalid_argument(w + "progress_interval must be positive (got " +
                                std::to_string(opts.progress_interval) + ")");
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
  return opts.max_iterations.value_or(10 * n);
}

// Whether the relative residual ||b - A x|| / ||b|| of the returned x
// meets the tolerance (solve_tolerance_met on max(tolerance, atol / ||b||)).
inline bool relative_residual_met(double residual, const solve_options& opts, double b_norm) {
  const double bound = std::max(opts.tolerance, opts.atol / b_norm);
  return solve_tolerance_met(residual * residual, bound * bound);
}

// Sets the status from what the iteration found (both backends), and the
// message of an iteration that ran out of iterations.
inline void finish(solve_result& res) {
  if (res.converged) {
    res.status = solve_status::converged;
    res.message.clear();
  } else if (res.breakdown) {
    res.status = solve_status::breakdown;
  } else if (res.status != solve_status::diverged && res.status != solve_status::stagnated) {
    res.status = solve_status::max_iterations;
    res.message = "not converged after " + std::to_string(res.iterations) + " iterations";
  }
}

}  // namespace detail::solve

}  // namespace gpuprim
