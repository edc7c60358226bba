// The options and the result of the iterative solvers (gpuprim/solve.hpp),
// shared by the host and GPU backends.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/enum_name.hpp"

namespace gpuprim {

enum class solve_method { cg, bicgstab, jacobi, richardson };
enum class preconditioner { none, jacobi };

// Why a solve stopped.
enum class solve_status {
  converged,       // ||b - A x|| < max(tolerance ||b||, atol), or b - A x = 0
  max_iterations,  // the iteration limit came first
  diverged,        // the residual was not finite, or 1e8 times its start
  stagnated,       // no relative improvement over the stagnation window
  breakdown,       // CG / BiCGStab would have divided by zero
};

// Which division a breakdown avoided (solve_result::breakdown_cause).
enum class solve_breakdown {
  none,
  curvature,  // CG: p.Ap = 0 (or not finite), or r.z = 0
  rho,        // BiCGStab: |rhat.r| < eps(T)^2 (SciPy's info -10)
  omega,      // BiCGStab: |omega| < eps(T)^2, rhat.v = 0 or t.t = 0 (SciPy's info -11)
};

// What a progress callback sees (solve_options::progress).
struct solve_progress {
  std::size_t iteration = 0;
  double residual = 0.0;  // ||r|| / ||b|| of the current iterate
  double seconds = 0.0;   // since the solve started
};

struct solve_options {
  // Relative tolerance (SciPy's rtol): stop when
  // ||b - A x|| < max(tolerance * ||b||, atol) (SciPy's test), or when the
  // residual is exactly zero.
  double tolerance = 1e-8;
  // Absolute tolerance (SciPy's atol); 0: the relative one alone.
  double atol = 0.0;
  // The iteration limit; unset: 10 * n (SciPy's default). 0: no
  // iteration: x is the initial guess, its residual computed.
  std::optional<std::size_t> max_iterations;
  // true: x holds the initial guess on entry; false: start from x = 0.
  bool use_initial_guess = false;
  // The diagonal (Jacobi) preconditioner, for CG, BiCGStab and Richardson
  // (the Jacobi iteration always uses the diagonal).
  preconditioner precond = preconditioner::none;
  // The relaxation factor of Richardson (x += omega M (b - A x)), and the
  // weight of the Jacobi iteration (1: plain Jacobi).
  double omega = 1.0;
  // Keep ||r|| / ||b|| before the first and after every iteration.
  bool keep_history = false;
  // Stagnation: the solve stops (solve_status::stagnated) when the residual
  // has not fallen below (1 - stagnation_improvement) times its last
  // recorded low within stagnation_window iterations. 0: never.
  std::size_t stagnation_window = 500;
  double stagnation_improvement = 1e-3;
  // Divergence: the solve stops (solve_status::diverged) when the residual
  // is not finite, or more than divergence_growth times the initial one.
  // 0: only a non-finite residual (SciPy runs on until maxiter).
  double divergence_growth = 1e8;
  // Called with the iteration, the residual and the elapsed time once
  // progress_interval seconds have passed, then every progress_interval
  // seconds (never for a solve that ends sooner). The host looks at the
  // clock once per iteration; the GPU solver at its convergence checks
  // (check_every), adding no synchronization.
  std::function<void(const solve_progress&)> progress;
  double progress_interval = 1.0;
  // GPU: iterations between two convergence checks on the host (each check
  // is one copy of a few bytes and a synchronization); 0: automatic.
  // The iteration stops at the first iteration that meets the tolerance
  // (or diverges or stagnates) whatever this is (the device skips the work
  // after it).
  int check_every = 0;
};

// The convergence test both backends make, on squares: ||r||^2 against
// bound2 = max(tolerance ||b||, atol)^2, strictly below as SciPy's
// `norm(r) < atol`; an exact zero residual meets any bound (SciPy would go
// on and divide 0 by 0). NaN and inf never meet it.
GPUPRIM_HD inline bool solve_tolerance_met(double rr, double bound2) {
  return rr < bound2 || rr == 0;
}

// The divergence and stagnation rules, on squared residual norms, shared
// by the host and GPU solvers (the GPU's copy lives in device memory and is
// updated by one thread): configure(), begin() with the initial residual,
// then check() after every iteration whose residual did not meet the
// tolerance.
struct solve_watch {
  enum verdict : int { go = 0, diverged = 1, stagnated = 2 };
  double start = 0;               // ||r_0||^2
  double low = 0;                 // the last recorded low of ||r||^2
  unsigned long long low_at = 0;  // its iteration
  unsigned long long window = 0;  // 0: no stagnation rule
  double keep = 1;                // (1 - improvement)^2
  double growth2 = 0;             // divergence_growth^2; 0: no growth rule

  GPUPRIM_HD void configure(unsigned long long stagnation_window, double improvement,
                            double growth) {
    window = stagnation_window;
    keep = (1 - improvement) * (1 - improvement);
    growth2 = growth * growth;
  }
  GPUPRIM_HD void begin(double rr) {
    start = rr;
    low = rr;
    low_at = 0;
  }
  // The residual after iteration k (k = 0: the initial one).
  GPUPRIM_HD int check(double rr, unsigned long long k) {
    constexpr double largest = 1.7976931348623157e308;
    if (!(rr <= largest) || (growth2 > 0 && rr > start * growth2))
      return diverged;  // NaN fails every comparison
    if (rr < keep * low) {
      low = rr;
      low_at = k;
      return go;
    }
    if (window != 0 && k - low_at >= window) return stagnated;
    return go;
  }
};

struct solve_result {
  std::size_t iterations = 0;
  // ||b - A x|| / ||b|| of the returned x (0 when b = 0).
  double residual = 0.0;
  bool converged = false;
  // A division by zero (or by a non-finite value) stopped CG or BiCGStab;
  // x is the last iterate before it, and breakdown_cause says which.
  bool breakdown = false;
  solve_breakdown breakdown_cause = solve_breakdown::none;
  // BiCGStab: the last iteration stopped at its half step (x + alpha p^
  // met the tolerance: SciPy's bicgstab returns from there).
  bool half_step = false;
  solve_status status = solve_status::max_iterations;
  // Why the solver stopped when it did not converge ("diverged at
  // iteration k: ...", "stagnated at iteration k: ...", "breakdown: ...",
  // "not converged after k iterations").
  std::string message;
  // Relative residuals: before the first iteration, then after each one
  // (when solve_options::keep_history).
  std::vector<double> history;
};

inline const char* name_of(solve_method m) {
  static constexpr const char* names[] = {"cg", "bicgstab", "jacobi", "richardson"};
  return detail::enum_name(m, names, "?");
}

inline const char* name_of(solve_status s) {
  static constexpr const char* names[] = {"converged", "reached the iteration limit", "diverged",
                                          "stagnated", "breakdown"};
  return detail::enum_name(s, names, "?");
}

}  // namespace gpuprim
