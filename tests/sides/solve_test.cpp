// The iterative solvers on each backend (support/side_test.hpp): each
// method against a direct dense solve on small systems, dense matrices, the
// edge cases and the stops (the checks of support/solve_cases.hpp). The
// backends' own cases are in tests/host/solve_test.cpp and
// tests/cuda/solve_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprim/solve.hpp"
#include "support/side_test.hpp"
#include "support/solve_cases.hpp"
#include "support/solve_scipy_cases.hpp"

namespace {

// The solver calls of support/solve_cases.hpp on this side's memory. On the
// GPU, check_every (0: the library's choice) is how often the residual is
// looked at.
struct solver_on_side {
  int check_every = 0;
  template <class T, class I>
  gp::solve_result csr(gp::solve_method m, const gp::csr_matrix<T, I>& A, const std::vector<T>& b,
                       std::vector<T>& x, gp::solve_options opts) {
    opts.check_every = check_every;
    const auto db = side::put(b);
    auto dx = side::put(x);
    gp::solve_result r;
    if constexpr (on_cuda) {
      r = gp::solve(side::backend(), m, gp::device_csr_matrix<T, I>(A), db, dx, opts);
    } else {
      r = gp::solve(side::backend(), m, A, db, dx, opts);
    }
    x = side::get(dx);
    return r;
  }
  template <class T>
  gp::solve_result dense(gp::solve_method m, const std::vector<T>& a, std::size_t n,
                         const std::vector<T>& b, std::vector<T>& x, gp::solve_options opts) {
    opts.check_every = check_every;
    const auto da = side::put(a);
    const auto db = side::put(b);
    auto dx = side::put(x);
    const gp::solve_result r =
        gp::solve(side::backend(), m, side::matrix_view<const T>(da.data(), n, n), db, dx, opts);
    x = side::get(dx);
    return r;
  }
};

}  // namespace

SIDE_TEST(solve, float_int32_against_direct) {
  solver_on_side solver;
  auto rng = make_rng(601);
  check_small_systems<float, std::int32_t>(solver, rng);
}

SIDE_TEST(solve, double_int32_against_direct) {
  solver_on_side solver;
  auto rng = make_rng(602);
  check_small_systems<double, std::int32_t>(solver, rng);
}

// (On the GPU checking the residual every iteration.)
SIDE_TEST(solve, double_int64_against_direct) {
  solver_on_side solver{1};
  auto rng = make_rng(603);
  check_small_systems<double, std::int64_t>(solver, rng);
}

// (On the GPU checking the residual every 5 iterations.)
SIDE_TEST(solve, float_int64_against_direct) {
  solver_on_side solver{5};
  auto rng = make_rng(604);
  check_small_systems<float, std::int64_t>(solver, rng);
}

SIDE_TEST(solve, dense_matrices) {
  solver_on_side solver;
  auto rng = make_rng(605);
  check_dense_systems<float>(solver, rng);
  check_dense_systems<double>(solver, rng);
}

SIDE_TEST(solve, edges) {
  solver_on_side solver;
  check_solver_edges(solver);
  if (on_cuda) {
    solver_on_side every{1};
    check_solver_edges(every);
  }
}

SIDE_TEST(solve, stops_and_says_why) {
  solver_on_side solver;
  check_solver_stops(solver);
  if (on_cuda) {
    solver_on_side every{1};
    check_solver_stops(every);
  }
}

// SciPy's rules (issue 41): NaN and inf are a divergence at iteration 0,
// CG through an indefinite matrix, the strict test and max_iterations 0,
// the breakdowns told apart.
SIDE_TEST(solve, non_finite_data_diverges) {
  solver_on_side solver;
  check_non_finite_data(solver);
}

SIDE_TEST(solve, scipy_iterations) {
  solver_on_side solver;
  check_cg_indefinite(solver);
  check_limits_and_tolerance(solver);
  check_breakdown_causes(solver);
  if (on_cuda) {
    solver_on_side every{1};
    check_limits_and_tolerance(every);
    check_breakdown_causes(every);
  }
}
