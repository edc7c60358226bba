// The options and the result of the iterative solvers (gpuprim/solve.hpp),
// shared by the host and GPU backends.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpuprim {

enum class solve_method { cg, bicgstab, jacobi, richardson };
enum class preconditioner { none, jacobi };

struct solve_options {
  // Stop when ||b - A x|| / ||b|| <= tolerance.
  double tolerance = 1e-8;
  // 0: 10 * n.
  std::size_t max_iterations = 0;
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
  // GPU: iterations between two convergence checks on the host (each check
  // is one copy of a few bytes and a synchronization); 0: automatic.
  // The iteration stops at the first iteration that meets the tolerance
  // whatever this is (the device skips the work after it).
  int check_every = 0;
};

struct solve_result {
  std::size_t iterations = 0;
  // ||b - A x|| / ||b|| of the returned x (0 when b = 0).
  double residual = 0.0;
  bool converged = false;
  // A division by zero (or by a non-finite value) stopped CG or BiCGStab;
  // x is the last iterate before it.
  bool breakdown = false;
  // Why the solver stopped when it did not converge.
  std::string message;
  // Relative residuals: before the first iteration, then after each one
  // (when solve_options::keep_history).
  std::vector<double> history;
};

inline const char* name_of(solve_method m) {
  switch (m) {
    case solve_method::cg:
      return "cg";
    case solve_method::bicgstab:
      return "bicgstab";
    case solve_method::jacobi:
      return "jacobi";
    case solve_method::richardson:
      return "richardson";
  }
  return "?";
}

}  // namespace gpuprim
