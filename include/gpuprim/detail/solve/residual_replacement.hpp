// What the iterative solvers of both backends share: the outer loop of the
// Krylov methods (CG, BiCGStab) with residual replacement, and the
// messages of a result that diverged or stagnated.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <string>

#include "gpuprim/solve_types.hpp"

namespace gpuprim::detail::solve {

inline std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

// The messages of solve_result for a divergence and a stagnation.
inline std::string diverged_message(std::size_t iteration, double residual, double start) {
  return "diverged at iteration " + std::to_string(iteration) + ": the residual " +
         (std::isfinite(residual)
              ? number(residual) + " is more than 1e8 times its start " + number(start)
              : std::string("is not finite"));
}
inline std::string stagnated_message(std::size_t iteration, double residual,
                                     const solve_options& opts) {
  return "stagnated at iteration " + std::to_string(iteration) + ": the residual " +
         number(residual) + " has not fallen by " + number(opts.stagnation_improvement * 100) +
         "% in " + std::to_string(opts.stagnation_window) + " iterations";
}

// SciPy's BiCGStab breakdown threshold on |rhat.r| and |omega| (its rhotol
// and omegatol): eps(T)^2, absolute.
template <class T>
inline constexpr double bicgstab_breakdown_below = double(std::numeric_limits<T>::epsilon()) *
                                                   double(std::numeric_limits<T>::epsilon());

// Where a Krylov iteration stands between steps.
struct krylov_status {
  bool stopped = false;  // diverged, stagnated or broke down: the loop ends
  bool met = false;      // the recurrences' residual meets the tolerance
  std::size_t iterations = 0;
};

// The outer loop of CG and BiCGStab on either backend. The recurrences'
// residual drifts from b - A x in finite precision, so when it meets the
// tolerance the true residual is computed, and if that has not met it the
// iteration restarts from the current x (residual replacement) instead of
// stopping short. The backend's `solver` offers
//   status()       a krylov_status;
//   replace()      r = b - A x, the recurrences restarted from it;
//   advance(most)  up to `most` iterations (one on the host, a batch of
//                  queued ones on the GPU).
template <class Solver>
void iterate_with_replacement(Solver& solver, std::size_t max_iterations, solve_result& res) {
  bool replaced = true;  // r is the true residual of x
  for (;;) {
    const krylov_status status = solver.status();
    if (status.stopped) break;
    if (status.met) {
      if (replaced) {
        res.converged = true;
        break;
      }
      solver.replace();
      replaced = true;
      continue;
    }
    if (status.iterations >= max_iterations) break;
    solver.advance(max_iterations - status.iterations);
    replaced = false;
  }
}

}  // namespace gpuprim::detail::solve
