// The solver checks of SciPy's rules (issue 41), shared by both backends
// (tests/sides/solve_test.cpp): non-finite data is a divergence at
// iteration 0, never a convergence; CG goes on through an indefinite
// matrix; the strict tolerance test; max_iterations 0; which breakdown
// stopped BiCGStab and whether it ended at its half step. A side runs one
// solve as in support/solve_cases.hpp.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpuprim/solve.hpp"
#include "gpuprim/sparse_generate.hpp"

namespace gpuprim::test {

inline std::vector<solve_method> every_solve_method() {
  return {solve_method::cg, solve_method::bicgstab, solve_method::jacobi, solve_method::richardson};
}

// NaN or inf in b, in x0 or in A's values: diverged at iteration 0 ("the
// residual is not finite"), never converged, for every method.
template <class Side>
void check_non_finite_data(Side& side) {
  const auto P = poisson2d<double, std::int32_t>(3);  // 9 x 9, diagonal 4
  const std::size_t n = P.rows();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const solve_method m : every_solve_method()) {
    const std::string label = name_of(m);
    auto expect_diverged_at_start = [&](const solve_result& r, const std::string& what) {
      EXPECT_FALSE(r.converged) << label << " " << what;
      EXPECT_EQ(r.status, solve_status::diverged) << label << " " << what << ": " << r.message;
      EXPECT_EQ(r.iterations, 0u) << label << " " << what;
      EXPECT_EQ(r.message, "diverged at iteration 0: the residual is not finite")
          << label << " " << what;
    };
    solve_options opts;
    opts.omega = 0.2;
    for (const double bad : {nan, inf, -inf}) {
      std::vector<double> b(n, 1.0), x(n, 3.0);
      b[4] = bad;
      expect_diverged_at_start(side.csr(m, P, b, x, opts), "b[4] = " + std::to_string(bad));
      for (double v : x)
        EXPECT_EQ(v, 0.0) << label;  // the iteration started from 0 and took no step
    }
    for (const double bad : {nan, inf}) {
      std::vector<double> b(n, 1.0), x(n, 0.0);
      x[0] = bad;
      solve_options guess = opts;
      guess.use_initial_guess = true;
      expect_diverged_at_start(side.csr(m, P, b, x, guess), "x0[0] = " + std::to_string(bad));
    }
    for (const double bad : {nan, inf}) {
      std::vector<double> values = P.values();
      values[1] = bad;  // off the diagonal (row 0's second entry)
      ASSERT_NE(P.col_indices()[1], 0);
      const csr_matrix<double, std::int32_t> A(n, n, P.row_offsets(), P.col_indices(), values);
      std::vector<double> b(n, 1.0), x(n, 0.0);
      expect_diverged_at_start(side.csr(m, A, b, x, opts), "A value " + std::to_string(bad));
    }
  }
}

// CG on a symmetric indefinite matrix (SciPy's "rand-diag" case of
// test_iterative.py) goes on through p.Ap < 0 and converges, as SciPy's cg.
template <class Side>
void check_cg_indefinite(Side& side) {
  const std::vector<double> d = {6, -5, 2, 7, -1, 10, 4, -3, -8, 9};
  std::vector<std::int32_t> offsets(11), cols(10);
  for (std::int32_t i = 0; i < 10; ++i) {
    offsets[i + 1] = i + 1;
    cols[i] = i;
  }
  const csr_matrix<double, std::int32_t> A(10, 10, offsets, cols, d);
  std::vector<double> b(10), x(10, 0.0);
  for (std::size_t i = 0; i < 10; ++i)
    b[i] = double(i);
  solve_options opts;
  opts.tolerance = 1e-8;
  const solve_result r = side.csr(solve_method::cg, A, b, x, opts);
  EXPECT_TRUE(r.converged) << r.message;
  EXPECT_FALSE(r.breakdown);
  EXPECT_LT(r.residual, 1e-8);
  for (std::size_t i = 0; i < 10; ++i)
    EXPECT_NEAR(x[i], b[i] / d[i], 1e-6) << i;
}

// max_iterations 0 runs no iteration: x is x0, its residual computed;
// the tolerance test is strict (||r|| = the bound does not meet it), and
// an exact zero residual meets even tolerance 0.
template <class Side>
void check_limits_and_tolerance(Side& side) {
  const auto P = poisson2d<double, std::int32_t>(4);  // 16 x 16, ||1|| = 4
  const std::vector<double> ones(16, 1.0);
  for (const solve_method m : every_solve_method()) {
    const std::string label = name_of(m);
    solve_options none;
    none.max_iterations = 0;
    none.use_initial_guess = true;
    none.omega = 0.2;
    std::vector<double> x(16, 0.5);
    const solve_result r = side.csr(m, P, ones, x, none);
    EXPECT_EQ(r.iterations, 0u) << label;
    EXPECT_EQ(r.status, solve_status::max_iterations) << label << ": " << r.message;
    EXPECT_EQ(r.message, "not converged after 0 iterations") << label;
    EXPECT_EQ(x, std::vector<double>(16, 0.5)) << label;
    // ||A 0.5 - 1|| / ||1||: rows of P sum to 0 inside, 1 or 2 at the edges.
    std::vector<double> r0(16);
    spmv(host, -0.5, P, std::span<const double>(std::vector<double>(16, 1.0)), 0.0,
         std::span<double>(r0));
    double rr = 0;
    for (std::size_t i = 0; i < 16; ++i)
      rr += (1.0 + r0[i]) * (1.0 + r0[i]);
    EXPECT_NEAR(r.residual, std::sqrt(rr) / 4.0, 1e-12) << label;

    // atol = ||b|| with x0 = 0: ||r_0|| = ||b|| is not below it.
    solve_options strict;
    strict.tolerance = 0;
    strict.atol = 4.0;
    strict.max_iterations = 1;
    strict.omega = 0.2;
    std::vector<double> y(16, 0.0);
    const solve_result s = side.csr(m, P, ones, y, strict);
    EXPECT_EQ(s.iterations, 1u) << label << ": " << s.message;
  }
  // A 1 x 1 system is solved exactly in one step: tolerance 0 is met.
  const csr_matrix<double, std::int32_t> four(1, 1, {0, 1}, {0}, {4.0});
  const std::vector<double> eight(1, 8.0);
  for (const solve_method m : {solve_method::cg, solve_method::bicgstab, solve_method::jacobi}) {
    solve_options exact;
    exact.tolerance = 0;
    std::vector<double> x(1, 0.0);
    const solve_result r = side.csr(m, four, eight, x, exact);
    EXPECT_TRUE(r.converged) << name_of(m) << ": " << r.message;
    EXPECT_EQ(r.iterations, 1u) << name_of(m);
    EXPECT_EQ(x[0], 2.0) << name_of(m);
    // BiCGStab's s = r - alpha A p is zero: it stopped at the half step.
    EXPECT_EQ(r.half_step, m == solve_method::bicgstab) << name_of(m);
  }
}

// Which division a breakdown avoided, as SciPy tells them apart.
template <class Side>
void check_breakdown_causes(Side& side) {
  // CG: p.Ap = 0 at the first step.
  const csr_matrix<double, std::int32_t> indefinite(2, 2, {0, 1, 2}, {0, 1}, {1.0, -1.0});
  std::vector<double> ones(2, 1.0), x(2, 0.0);
  const solve_result c = side.csr(solve_method::cg, indefinite, ones, x, solve_options{});
  EXPECT_EQ(c.status, solve_status::breakdown);
  EXPECT_EQ(c.breakdown_cause, solve_breakdown::curvature);
  // BiCGStab on [[0, 1], [1, 0]] with b = e0: rhat.A p = 0 (SciPy's -11).
  const csr_matrix<double, std::int32_t> swap(2, 2, {0, 1, 2}, {1, 0}, {1.0, 1.0});
  std::vector<double> e0 = {1.0, 0.0}, y(2, 0.0);
  const solve_result b = side.csr(solve_method::bicgstab, swap, e0, y, solve_options{});
  EXPECT_EQ(b.status, solve_status::breakdown) << b.message;
  EXPECT_EQ(b.breakdown_cause, solve_breakdown::omega) << b.message;
  EXPECT_EQ(y, (std::vector<double>{0.0, 0.0}));
  // A converged solve has none.
  std::vector<double> z(2, 0.0);
  const csr_matrix<double, std::int32_t> eye(2, 2, {0, 1, 2}, {0, 1}, {1.0, 1.0});
  const solve_result ok = side.csr(solve_method::bicgstab, eye, ones, z, solve_options{});
  EXPECT_TRUE(ok.converged);
  EXPECT_EQ(ok.breakdown_cause, solve_breakdown::none);
}

}  // namespace gpuprim::test
