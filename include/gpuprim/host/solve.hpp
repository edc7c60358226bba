// CPU backend of the iterative solvers: the textbook iterations over an
// operator (a CSR or a dense matrix), OpenMP loops for the vector updates,
// dot products accumulated in double.
//
// Every solver checks ||r|| / ||b|| before each iteration; CG and BiCGStab
// run the outer loop both backends share (detail::solve::
// iterate_with_replacement: residual replacement).
// solver_state::record applies the divergence and stagnation rules
// (solve_watch, gpuprim/solve_types.hpp) to every residual, and calls the
// progress callback when its interval has passed.
#pragma once

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/solve/residual_replacement.hpp"
#include "gpuprim/detail/sparse/spmv.hpp"
#include "gpuprim/host/spmv.hpp"
#include "gpuprim/solve_types.hpp"

namespace gpuprim {

namespace host_impl {

using detail::solve::diverged_message;
using detail::solve::number;
using detail::solve::stagnated_message;

// A square CSR matrix as an operator: y = alpha A x + beta y, and its diagonal.
template <class T, class I>
struct csr_operator {
  host_backend backend;
  std::size_t n;
  const I* offsets;
  const I* cols;
  const T* values;

  void apply(T alpha, const T* x, T beta, T* y) const {
    spmv(backend, alpha, n, offsets, cols, values, x, beta, y);
  }
  T diagonal(std::size_t r) const { return detail::sparse::csr_diagonal(offsets, cols, values, r); }
};

// A square row-major dense matrix as an operator.
template <class T>
struct dense_operator {
  host_backend backend;
  matrix_view<const T> a;
  std::size_t n;

  void apply(T alpha, const T* x, T beta, T* y) const {
    const std::int64_t rows = static_cast<std::int64_t>(n);
    const int threads = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
#pragma omp parallel for schedule(static) num_threads(threads) if (n * n > 65536)
    for (std::int64_t r = 0; r < rows; ++r) {
      const T* row = a.data() + static_cast<std::size_t>(r) * a.ld();
      T sum = 0;
      for (std::size_t c = 0; c < n; ++c)
        sum += row[c] * x[c];
      y[r] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[r];
    }
  }
  T diagonal(std::size_t r) const {
    return a(r, r);
  }
};

template <class F>
void parallel_for(host_backend backend, std::size_t n, F f) {
  const int threads = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
#pragma omp parallel for schedule(static) num_threads(threads) if (n > 32768)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
    f(static_cast<std::size_t>(i));
}

template <class F>
double parallel_sum(host_backend backend, std::size_t n, F f) {
  const int threads = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  double sum = 0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : sum) if (n > 32768)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
    sum += f(static_cast<std::size_t>(i));
  return sum;
}

// The bookkeeping every host solver shares: the residual after each
// iteration (history, the divergence and stagnation rules of solve_watch,
// the progress callback) and the tolerance.
template <class T>
struct solver_state {
  host_backend backend;
  std::size_t n;
  double b_norm;
  const solve_options& opts;
  solve_result& result;
  solve_watch watch{};
  bool begun = false;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  double next_progress = opts.progress_interval;

  double bound = std::max(opts.tolerance * b_norm, opts.atol);

  // f(i) for every i < n, and the sum of f(i), on the backend's threads:
  // every vector update and dot product of the solvers.
  template <class F>
  void for_each(F f) const {
    parallel_for(backend, n, f);
  }
  template <class F>
  double sum(F f) const {
    return parallel_sum(backend, n, f);
  }

  double relative(double norm2) const { return std::sqrt(norm2) / b_norm; }
  // ||r|| < max(tolerance ||b||, atol), or r = 0 (solve_tolerance_met).
  bool met(double norm2) const { return solve_tolerance_met(norm2, bound * bound); }
  // Records ||r||^2 after result.iterations iterations; true when the
  // iteration must stop because it diverged or stagnated (result.status
  // and result.message say which).
  bool record(double norm2) {
    const double rel = relative(norm2);
    result.residual = rel;
    if (opts.keep_history) result.history.push_back(rel);
    if (opts.progress) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (seconds >= next_progress) {
        opts.progress(solve_progress{result.iterations, rel, seconds});
        next_progress = (std::floor(seconds / opts.progress_interval) + 1) * opts.progress_interval;
      }
    }
    if (!begun) {
      watch.configure(opts.stagnation_window, opts.stagnation_improvement, opts.divergence_growth);
      watch.begin(norm2);
      begun = true;
    }
    if (met(norm2)) return false;
    switch (watch.check(norm2, result.iterations)) {
      case solve_watch::diverged:
        result.status = solve_status::diverged;
        result.message = diverged_message(result.iterations, rel, relative(watch.start));
        return true;
      case solve_watch::stagnated:
        result.status = solve_status::stagnated;
        result.message = stagnated_message(result.iterations, rel, opts);
        return true;
      default:
        return false;
    }
  }
};

// r = b - A x; returns ||r||^2.
template <class T, class Op>
double true_residual(const Op& op, host_backend backend, std::size_t n, const T* b, const T* x,
                     T* r) {
  std::copy(b, b + n, r);
  op.apply(T(-1), x, T(1), r);
  return parallel_sum(backend, n, [&](std::size_t i) { return double(r[i]) * double(r[i]); });
}

// The inverse diagonal (the Jacobi preconditioner), or ones.
template <class T, class Op>
std::vector<T> inverse_diagonal(const Op& op, std::size_t n, bool use) {
  std::vector<T> d(n, T(1));
  if (use) {
    for (std::size_t i = 0; i < n; ++i)
      d[i] = T(1) / op.diagonal(i);
  }
  return d;
}

inline bool finite(double v) {
  return std::isfinite(v);
}

// Records a breakdown in the result; false (the iteration stops).
inline bool broke_down(solve_result& res, solve_breakdown cause, std::string message) {
  res.breakdown = true;
  res.breakdown_cause = cause;
  res.message = std::move(message);
  return false;
}

// The host side of detail::solve::iterate_with_replacement for one method:
// restart() starts its recurrences from r (the true residual b - A x);
// iterate(rr) makes one iteration and sets rr = ||r||^2 after it, or
// returns false after a breakdown (with res.breakdown and res.message).
template <class T, class Op, class Restart, class Iterate>
class host_krylov {
 public:
  host_krylov(const Op& op, solver_state<T>& s, const T* b, T* x, T* r, Restart& restart,
              Iterate& iterate)
      : op_(op), s_(s), b_(b), x_(x), r_(r), restart_(restart), iterate_(iterate) {
    rr_ = true_residual(op_, s_.backend, s_.n, b_, x_, r_);
    restart_();
    stop_ = s_.record(rr_);
  }
  detail::solve::krylov_status status() const { return {stop_, s_.met(rr_), s_.result.iterations}; }
  void replace() {
    rr_ = true_residual(op_, s_.backend, s_.n, b_, x_, r_);
    s_.result.residual = s_.relative(rr_);
    restart_();
  }
  void advance(std::size_t) {
    if (!iterate_(rr_)) {
      stop_ = true;
      return;
    }
    ++s_.result.iterations;
    stop_ = s_.record(rr_);
  }

 private:
  const Op& op_;
  solver_state<T>& s_;
  const T* b_;
  T* x_;
  T* r_;
  Restart& restart_;
  Iterate& iterate_;
  double rr_ = 0;
  bool stop_ = false;
};

template <class T, class Op, class Restart, class Iterate>
void run_krylov(const Op& op, solver_state<T>& s, const T* b, T* x, T* r, std::size_t max_iter,
                Restart restart, Iterate iterate) {
  host_krylov<T, Op, Restart, Iterate> solver(op, s, b, x, r, restart, iterate);
  detail::solve::iterate_with_replacement(solver, max_iter, s.result);
}

// Preconditioned conjugate gradients.
template <class T, class Op>
void cg(const Op& op, solver_state<T>& s, const T* b, T* x, const std::vector<T>& dinv,
        std::size_t max_iter) {
  std::vector<T> r(s.n), p(s.n), q(s.n);
  double rz = 0;
  auto restart = [&] {
    s.for_each([&](std::size_t i) { p[i] = dinv[i] * r[i]; });
    rz = s.sum([&](std::size_t i) { return double(r[i]) * double(p[i]); });
  };
  auto iterate = [&](double& rr) {
    op.apply(T(1), p.data(), T(0), q.data());
    const double pq = s.sum([&](std::size_t i) { return double(p[i]) * double(q[i]); });
    // SciPy's cg goes on through p.Ap < 0 (an indefinite matrix often
    // converges still); only a division by zero stops it.
    if (pq == 0 || !finite(pq) || rz == 0) {
      return broke_down(s.result, solve_breakdown::curvature,
                        "breakdown: p.Ap = " + number(pq) + ", r.z = " + number(rz) +
                            " (is the matrix symmetric positive definite?)");
    }
    const T alpha = static_cast<T>(rz / pq);
    s.for_each([&](std::size_t i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    });
    rr = s.sum([&](std::size_t i) { return double(r[i]) * double(r[i]); });
    const double rz_new =
        s.sum([&](std::size_t i) { return double(r[i]) * double(dinv[i] * r[i]); });
    const T beta = static_cast<T>(rz_new / rz);
    rz = rz_new;
    s.for_each([&](std::size_t i) { p[i] = dinv[i] * r[i] + beta * p[i]; });
    return true;
  };
  run_krylov(op, s, b, x, r.data(), max_iter, restart, iterate);
}

// Right-preconditioned BiCGStab (van der Vorst), in SciPy's order: the
// tolerance on r, then the rho and omega breakdowns, then the step; the
// half step's s is tested too.
template <class T, class Op>
void bicgstab(const Op& op, solver_state<T>& s, const T* b, T* x, const std::vector<T>& dinv,
              std::size_t max_iter) {
  const std::size_t n = s.n;
  std::vector<T> r(n), rhat(n), p(n), v(n), ph(n), sv(n), sh(n), t(n);
  auto dot = [&](const std::vector<T>& u, const std::vector<T>& w) {
    return s.sum([&](std::size_t i) { return double(u[i]) * double(w[i]); });
  };
  double rho = 1, alpha = 1, omega = 1;
  bool fresh = true;  // p must restart from r
  auto restart = [&] {
    rhat = r;
    fresh = true;
  };
  constexpr double below = detail::solve::bicgstab_breakdown_below<T>;
  auto iterate = [&](double& rr) {
    const double rho_new = dot(rhat, r);
    if (!(std::abs(rho_new) >= below))
      return broke_down(s.result, solve_breakdown::rho, "breakdown: rhat.r = " + number(rho_new));
    if (fresh) {
      p = r;
      fresh = false;
    } else {
      if (!(std::abs(omega) >= below))
        return broke_down(s.result, solve_breakdown::omega, "breakdown: omega = " + number(omega));
      const T beta = static_cast<T>((rho_new / rho) * (alpha / omega));
      const T w = static_cast<T>(omega);
      s.for_each([&](std::size_t i) { p[i] = r[i] + beta * (p[i] - w * v[i]); });
    }
    rho = rho_new;
    s.for_each([&](std::size_t i) { ph[i] = dinv[i] * p[i]; });
    op.apply(T(1), ph.data(), T(0), v.data());
    const double rv = dot(rhat, v);
    if (rv == 0 || !finite(rv))
      return broke_down(s.result, solve_breakdown::omega, "breakdown: rhat.Ap = " + number(rv));
    alpha = rho / rv;
    const T a = static_cast<T>(alpha);
    s.for_each([&](std::size_t i) { sv[i] = r[i] - a * v[i]; });
    const double ss = dot(sv, sv);
    s.result.half_step = s.met(ss);
    if (s.result.half_step) {
      s.for_each([&](std::size_t i) { x[i] += a * ph[i]; });
      std::copy(sv.begin(), sv.end(), r.begin());
      rr = ss;
      return true;
    }
    s.for_each([&](std::size_t i) { sh[i] = dinv[i] * sv[i]; });
    op.apply(T(1), sh.data(), T(0), t.data());
    const double tt = dot(t, t);
    const double ts = dot(t, sv);
    if (tt == 0 || !finite(tt) || !finite(ts))
      return broke_down(s.result, solve_breakdown::omega,
                        "breakdown: t.t = " + number(tt) + ", t.s = " + number(ts));
    omega = ts / tt;
    const T w = static_cast<T>(omega);
    s.for_each([&](std::size_t i) {
      x[i] += a * ph[i] + w * sh[i];
      r[i] = sv[i] - w * t[i];
    });
    rr = dot(r, r);
    return true;
  };
  run_krylov(op, s, b, x, r.data(), max_iter, restart, iterate);
}

// Richardson: x += omega * M (b - A x), M = I or D^-1 (Jacobi: M = D^-1).
template <class T, class Op>
void richardson(const Op& op, solver_state<T>& s, const T* b, T* x, const std::vector<T>& dinv,
                std::size_t max_iter) {
  const T omega = static_cast<T>(s.opts.omega);
  std::vector<T> r(s.n);
  for (;;) {
    const double rr = true_residual(op, s.backend, s.n, b, x, r.data());
    if (s.record(rr)) break;
    if (s.met(rr)) {
      s.result.converged = true;
      break;
    }
    if (s.result.iterations == max_iter) break;
    s.for_each([&](std::size_t i) { x[i] += omega * dinv[i] * r[i]; });
    ++s.result.iterations;
  }
}

}  // namespace host_impl
}  // namespace gpuprim
