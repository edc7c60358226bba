// The solver checks shared by tests/host/solve_test.cpp and
// tests/cuda/solve_test.cpp. A side runs one solve:
//   side.csr(method, A, b, x, opts) and side.dense(method, a, n, b, x, opts)
// (x in/out, host vectors; the CUDA side moves them to the device and back).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpuprim/solve.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "support/sparse_reference.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

struct solver_case {
  solve_method method;
  preconditioner precond;
  double omega;
};

// Every method with and without the diagonal preconditioner.
inline std::vector<solver_case> solver_cases(bool symmetric_positive_definite) {
  std::vector<solver_case> cases = {
      {solve_method::bicgstab, preconditioner::none, 1.0},
      {solve_method::bicgstab, preconditioner::jacobi, 1.0},
      {solve_method::jacobi, preconditioner::none, 1.0},
      {solve_method::richardson, preconditioner::jacobi, 1.0},
  };
  if (symmetric_positive_definite) {
    cases.push_back({solve_method::cg, preconditioner::none, 1.0});
    cases.push_back({solve_method::cg, preconditioner::jacobi, 1.0});
  }
  return cases;
}

template <class T>
double solve_tolerance() {
  return std::is_same_v<T, float> ? 1e-5 : 1e-10;
}
template <class T>
double solution_tolerance() {
  return std::is_same_v<T, float> ? 2e-3 : 1e-7;
}

// Each solver against a direct dense solve of the same system.
template <class T, class I, class Side>
void check_against_direct(Side& side, const csr_matrix<T, I>& A, const std::string& what, bool spd,
                          std::mt19937_64& rng, double richardson_omega = 0) {
  const std::size_t n = A.rows();
  const auto b = random_vector<T>(n, rng);
  const auto reference = dense_solve(to_dense(A), std::vector<double>(b.begin(), b.end()), n);
  auto cases = solver_cases(spd);
  if (richardson_omega > 0)
    cases.push_back({solve_method::richardson, preconditioner::none, richardson_omega});
  for (const solver_case& c : cases) {
    solve_options opts;
    opts.tolerance = solve_tolerance<T>();
    opts.precond = c.precond;
    opts.omega = c.omega;
    opts.keep_history = true;
    opts.max_iterations = 20000;
    std::vector<T> x(n, T(7));  // not read: use_initial_guess is false
    const solve_result r = side.csr(c.method, A, b, x, opts);
    const std::string label = what + " " + name_of(c.method) +
                              (c.precond == preconditioner::jacobi ? " +jacobi" : "") + " omega " +
                              std::to_string(c.omega);
    EXPECT_TRUE(r.converged) << label << ": " << r.message << " after " << r.iterations;
    EXPECT_FALSE(r.breakdown) << label;
    EXPECT_LE(r.residual, opts.tolerance) << label;
    EXPECT_EQ(r.history.size(), r.iterations + 1) << label;
    if (!r.history.empty()) {
      EXPECT_NEAR(r.history.front(), 1.0, 1e-6) << label;  // x0 = 0: r0 = b
    }
    EXPECT_LE(relative_error(x, reference), solution_tolerance<T>()) << label;
  }
}

template <class T, class I, class Side>
void check_small_systems(Side& side, std::mt19937_64& rng) {
  check_against_direct<T, I>(side, poisson2d<T, I>(8), "poisson 8x8", true, rng, 0.2);
  check_against_direct<T, I>(side, random_spd<T, I>(150, 6, rng()), "random spd 150", true, rng);
  check_against_direct<T, I>(side, random_diagonally_dominant<T, I>(120, 5, rng()),
                             "diagonally dominant nonsymmetric 120", false, rng);
  const csr_matrix<T, I> one(1, 1, {0, 1}, {0}, {T(4)});
  check_against_direct<T, I>(side, one, "1 x 1", true, rng, 0.25);
}

template <class T, class Side>
void check_dense_systems(Side& side, std::mt19937_64& rng) {
  const std::size_t n = 70;
  const auto A = random_spd<T, std::int32_t>(n, 10, rng());
  const auto d = to_dense(A);
  std::vector<T> a(d.begin(), d.end());
  const auto b = random_vector<T>(n, rng);
  const auto reference = dense_solve(d, std::vector<double>(b.begin(), b.end()), n);
  for (const solver_case& c : solver_cases(true)) {
    solve_options opts;
    opts.tolerance = solve_tolerance<T>();
    opts.precond = c.precond;
    opts.max_iterations = 5000;
    std::vector<T> x(n);
    const solve_result r = side.dense(c.method, a, n, b, x, opts);
    EXPECT_TRUE(r.converged) << "dense " << name_of(c.method) << ": " << r.message;
    EXPECT_LE(relative_error(x, reference), solution_tolerance<T>())
        << "dense " << name_of(c.method);
  }
}

// Bad arguments throw before x is written; breakdowns are reported.
template <class Side>
void check_solver_edges(Side& side) {
  const auto P = poisson2d<double, std::int32_t>(4);  // 16 x 16
  std::vector<double> b(16, 1.0), x(16, 5.0);
  solve_options opts;
  // Size mismatch.
  std::vector<double> short_b(15, 1.0);
  EXPECT_THROW(side.csr(solve_method::cg, P, short_b, x, opts), std::invalid_argument);
  // Non-square.
  const csr_matrix<double, std::int32_t> rect(2, 3, {0, 1, 2}, {0, 1}, {1.0, 1.0});
  std::vector<double> b2(2, 1.0), x2(2, 5.0);
  EXPECT_THROW(side.csr(solve_method::bicgstab, rect, b2, x2, opts), std::invalid_argument);
  // Zero diagonal for Jacobi (an empty row), and for the preconditioner.
  const csr_matrix<double, std::int32_t> zero_diag(2, 2, {0, 1, 1}, {1}, {1.0});
  try {
    side.csr(solve_method::jacobi, zero_diag, b2, x2, opts);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("row 0"), std::string::npos) << e.what();
  }
  solve_options pre = opts;
  pre.precond = preconditioner::jacobi;
  EXPECT_THROW(side.csr(solve_method::cg, zero_diag, b2, x2, pre), std::invalid_argument);
  EXPECT_EQ(x2, (std::vector<double>{5.0, 5.0}));
  // Richardson needs omega > 0.
  solve_options bad_omega = opts;
  bad_omega.omega = 0;
  EXPECT_THROW(side.csr(solve_method::richardson, P, b, x, bad_omega), std::invalid_argument);
  for (double v : x)
    EXPECT_EQ(v, 5.0);

  // CG breakdown on an indefinite matrix: p.Ap = 0 at the first step.
  const csr_matrix<double, std::int32_t> indefinite(2, 2, {0, 1, 2}, {0, 1}, {1.0, -1.0});
  std::vector<double> ones(2, 1.0), xi(2, 3.0);
  const solve_result br = side.csr(solve_method::cg, indefinite, ones, xi, opts);
  EXPECT_TRUE(br.breakdown);
  EXPECT_EQ(br.status, solve_status::breakdown);
  EXPECT_FALSE(br.converged);
  EXPECT_FALSE(br.message.empty());
  for (double v : xi)
    EXPECT_TRUE(std::isfinite(v));
  EXPECT_NEAR(br.residual, 1.0, 1e-12);

  // b = 0: x = 0 at once.
  std::vector<double> zero_b(16, 0.0), xz(16, 3.0);
  const solve_result z = side.csr(solve_method::bicgstab, P, zero_b, xz, opts);
  EXPECT_TRUE(z.converged);
  EXPECT_EQ(z.status, solve_status::converged);
  EXPECT_EQ(z.iterations, 0u);
  for (double v : xz)
    EXPECT_EQ(v, 0.0);

  // The exact solution as the initial guess: no iterations.
  std::vector<double> xs(16);
  solve_options tight = opts;
  tight.tolerance = 1e-12;
  ASSERT_TRUE(side.csr(solve_method::cg, P, b, xs, tight).converged);
  solve_options guess = opts;
  guess.use_initial_guess = true;
  const solve_result again = side.csr(solve_method::cg, P, b, xs, guess);
  EXPECT_TRUE(again.converged);
  EXPECT_EQ(again.iterations, 0u);

  // Too few iterations: not converged, the last iterate returned.
  solve_options few = opts;
  few.max_iterations = 3;
  std::vector<double> xf(16);
  const solve_result f = side.csr(solve_method::jacobi, P, b, xf, few);
  EXPECT_FALSE(f.converged);
  EXPECT_EQ(f.status, solve_status::max_iterations);
  EXPECT_EQ(f.message, "not converged after 3 iterations");
  EXPECT_EQ(f.iterations, 3u);
  EXPECT_GT(f.residual, 0.0);
  EXPECT_LT(f.residual, 1.0);
}

// The 1-D Laplacian with Neumann ends (rows sum to 0: singular, symmetric)
// and a b outside its range (b . ones != 0): no solution exists.
inline csr_matrix<double, std::int32_t> neumann1d(std::size_t n) {
  std::vector<std::int32_t> r, c;
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) {
    const auto si = static_cast<std::int32_t>(i);
    auto put = [&](std::int32_t col, double value) {
      r.push_back(si);
      c.push_back(col);
      v.push_back(value);
    };
    if (i > 0) put(si - 1, -1.0);
    put(si, i == 0 || i + 1 == n ? 1.0 : 2.0);
    if (i + 1 < n) put(si + 1, -1.0);
  }
  return coo_to_csr<double, std::int32_t>(n, n, r, c, v);
}
inline std::vector<double> ramp(std::size_t n) {
  std::vector<double> b(n);
  for (std::size_t i = 0; i < n; ++i)
    b[i] = 1.0 + 0.01 * double(i);
  return b;
}

// Divergence, stagnation, the zero-diagonal check, atol and progress.
template <class Side>
void check_solver_stops(Side& side) {
  // 1. Every method, with and without the diagonal preconditioner, stops
  //    at the first residual above 1e8 times the start and says so.
  struct diverging {
    solve_method method;
    preconditioner precond;
    double omega;
    csr_matrix<double, std::int32_t> A;
    std::vector<double> b;
  };
  const auto P = poisson2d<double, std::int32_t>(8);
  const std::vector<double> ones(P.rows(), 1.0);
  std::vector<diverging> cases;
  for (preconditioner pre : {preconditioner::none, preconditioner::jacobi}) {
    cases.push_back({solve_method::cg, pre, 1.0, neumann1d(50), ramp(50)});
    cases.push_back({solve_method::bicgstab, pre, 1.0, neumann1d(50), ramp(50)});
  }
  cases.push_back({solve_method::richardson, preconditioner::none, 1.0, P, ones});
  cases.push_back({solve_method::richardson, preconditioner::jacobi, 3.0, P, ones});
  cases.push_back({solve_method::jacobi, preconditioner::none, 3.0, P, ones});
  for (const diverging& c : cases) {
    const std::string label =
        std::string(name_of(c.method)) + (c.precond == preconditioner::jacobi ? " +jacobi" : "");
    solve_options opts;
    opts.precond = c.precond;
    opts.omega = c.omega;
    opts.keep_history = true;
    opts.max_iterations = 5000;
    std::vector<double> x(c.A.rows(), 0.0);
    const solve_result r = side.csr(c.method, c.A, c.b, x, opts);
    EXPECT_EQ(r.status, solve_status::diverged) << label << ": " << r.message;
    EXPECT_FALSE(r.converged) << label;
    EXPECT_EQ(r.message.rfind("diverged at iteration " + std::to_string(r.iterations), 0), 0u)
        << label << ": " << r.message;
    EXPECT_LT(r.iterations, 1000u) << label;
    ASSERT_EQ(r.history.size(), r.iterations + 1) << label;
    // Stopped at the first residual over the threshold: none before it.
    const double start = r.history.front();
    const double last = r.history.back();
    EXPECT_TRUE(!std::isfinite(last) || last > 1e8 * start) << label << ": " << last;
    for (std::size_t k = 0; k + 1 < r.history.size(); ++k)
      EXPECT_LE(r.history[k], 1e8 * start) << label << " at " << k;
  }

  // 2. Stagnation: one entry on the diagonal, the rest of the rows empty.
  //    Richardson (which does not divide by the diagonal) leaves those
  //    rows' residual as it is: stopped after the window.
  const std::size_t n = 3000;
  std::vector<std::int32_t> offsets(n + 1, 1);
  offsets[0] = 0;
  const csr_matrix<double, std::int32_t> one_entry(n, n, offsets, {0}, {1.0});
  const std::vector<double> b(n, 1.0);
  for (std::size_t window : {std::size_t{500}, std::size_t{40}}) {
    solve_options opts;
    if (window != 500) opts.stagnation_window = window;
    std::vector<double> x(n, 0.0);
    const solve_result r = side.csr(solve_method::richardson, one_entry, b, x, opts);
    EXPECT_EQ(r.status, solve_status::stagnated) << r.message;
    EXPECT_EQ(r.iterations, window);
    EXPECT_EQ(r.message.rfind("stagnated at iteration " + std::to_string(window), 0), 0u)
        << r.message;
    EXPECT_NEAR(r.residual, std::sqrt(double(n - 1) / double(n)), 1e-12);
    for (double v : x)
      EXPECT_TRUE(std::isfinite(v));
  }
  // The Jacobi iteration on the singular Neumann system flattens out.
  {
    std::vector<double> x(50, 0.0);
    const auto r = side.csr(solve_method::jacobi, neumann1d(50), ramp(50), x, solve_options{});
    EXPECT_EQ(r.status, solve_status::stagnated) << r.message;
  }
  // Window 0: no stagnation rule; the iteration limit stops it.
  {
    solve_options opts;
    opts.stagnation_window = 0;
    opts.max_iterations = 700;
    std::vector<double> x(n, 0.0);
    const solve_result r = side.csr(solve_method::richardson, one_entry, b, x, opts);
    EXPECT_EQ(r.status, solve_status::max_iterations) << r.message;
    EXPECT_EQ(r.iterations, 700u);
  }

  // 3. A zero diagonal entry (the first is row 3) is refused up front by
  //    the Jacobi iteration and the Jacobi preconditioner; x is untouched.
  const csr_matrix<double, std::int32_t> zero3(5, 5, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 1, 0},
                                               {2.0, 2.0, 2.0, 1.0, 1.0});
  const std::vector<double> b5(5, 1.0);
  for (const solver_case& c : {solver_case{solve_method::jacobi, preconditioner::none, 1.0},
                               solver_case{solve_method::richardson, preconditioner::jacobi, 1.0},
                               solver_case{solve_method::bicgstab, preconditioner::jacobi, 1.0},
                               solver_case{solve_method::cg, preconditioner::jacobi, 1.0}}) {
    solve_options opts;
    opts.precond = c.precond;
    std::vector<double> x(5, 9.0);
    try {
      side.csr(c.method, zero3, b5, x, opts);
      ADD_FAILURE() << name_of(c.method) << ": no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("diagonal entry of row 3"), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(x, std::vector<double>(5, 9.0));
  }

  // 4. atol: ||r|| <= max(rtol ||b||, atol).
  {
    const double b_norm = std::sqrt(double(P.rows()));
    solve_options opts;
    opts.tolerance = 0;
    opts.atol = 1e-3 * b_norm;
    std::vector<double> x(P.rows(), 0.0);
    const solve_result r = side.csr(solve_method::cg, P, ones, x, opts);
    EXPECT_TRUE(r.converged) << r.message;
    EXPECT_LE(r.residual, 1e-3);
    EXPECT_GT(r.residual, 1e-8);  // stopped early, not at the tight default
    solve_options neither;
    neither.tolerance = 1e-12;
    neither.atol = 1e-3 * b_norm;  // the larger bound decides
    std::vector<double> y(P.rows(), 0.0);
    const solve_result q = side.csr(solve_method::cg, P, ones, y, neither);
    EXPECT_EQ(q.iterations, r.iterations);
    solve_options bad;
    bad.atol = -1;
    EXPECT_THROW(side.csr(solve_method::cg, P, ones, y, bad), std::invalid_argument);
  }

  // 5. Progress: with a tiny interval the callback sees the iterations in
  //    order, none past the last.
  {
    solve_options opts;
    opts.tolerance = 1e-10;
    opts.progress_interval = 1e-9;
    std::vector<std::size_t> seen;
    opts.progress = [&](const solve_progress& p) {
      seen.push_back(p.iteration);
      EXPECT_TRUE(std::isfinite(p.residual));
      EXPECT_GE(p.seconds, 0.0);
    };
    std::vector<double> x(P.rows(), 0.0);
    const solve_result r = side.csr(solve_method::jacobi, P, ones, x, opts);
    EXPECT_TRUE(r.converged);
    ASSERT_FALSE(seen.empty());
    for (std::size_t k = 1; k < seen.size(); ++k)
      EXPECT_LE(seen[k - 1], seen[k]);
    EXPECT_LE(seen.back(), r.iterations);
  }
}

}  // namespace gpuprim::test
