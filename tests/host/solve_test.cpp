// The iterative solvers: the cases of the CPU backend alone. The cases of
// both backends are in tests/sides/solve_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprim/solve.hpp"
#include "support/solve_cases.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_solve, named_entry_points) {
  const auto A = gp::poisson2d<double, int>(10);
  std::vector<double> b(100, 1.0), x(100);
  EXPECT_TRUE(gp::solve_cg(gp::host, A, b, x).converged);
  EXPECT_TRUE(gp::solve_bicgstab(gp::host, A.view(), b, x).converged);
  EXPECT_TRUE(gp::solve_jacobi(gp::host, A, b, x).converged);
  gp::solve_options o;
  o.omega = 0.24;
  EXPECT_TRUE(gp::solve_richardson(gp::host, A, b, x, o).converged);
}
TEST(host_solve, dense_divergence) {
  // Richardson with omega 1 on the 2-D Poisson matrix (eigenvalues up to 8)
  // as a dense matrix: the same stop as CSR.
  const auto A = gp::poisson2d<double, int>(5);
  const auto d = to_dense(A);
  std::vector<double> b(25, 1.0), x(25);
  const auto r = gp::solve_richardson(gp::host, gp::matrix_view<const double>(d.data(), 25, 25), b,
                                      x, gp::solve_options{});
  EXPECT_EQ(r.status, gp::solve_status::diverged) << r.message;
}
TEST(host_solve, is_symmetric) {
  EXPECT_TRUE(gp::is_symmetric(gp::poisson2d<double, int>(6)));
  EXPECT_TRUE(gp::is_symmetric(gp::random_spd<float, std::int64_t>(200, 6, 3)));
  EXPECT_FALSE(gp::is_symmetric(gp::random_diagonally_dominant<double, int>(200, 5, 4)));
  // Duplicates are summed before comparing: a(0, 1) = 1 + 2 = a(1, 0).
  const gp::csr_matrix<double, int> dup(2, 2, {0, 2, 3}, {1, 1, 0}, {1.0, 2.0, 3.0});
  EXPECT_TRUE(gp::is_symmetric(dup));
  const gp::csr_matrix<double, int> off(2, 2, {0, 2, 3}, {1, 1, 0}, {1.0, 2.0, 3.5});
  EXPECT_FALSE(gp::is_symmetric(off));
  // An entry whose mirror is missing.
  const gp::csr_matrix<double, int> lone(3, 3, {0, 1, 2, 3}, {0, 1, 0}, {1.0, 1.0, 1.0});
  EXPECT_FALSE(gp::is_symmetric(lone));
  const gp::csr_matrix<double, int> rect(2, 3, {0, 1, 2}, {0, 1}, {1.0, 1.0});
  EXPECT_FALSE(gp::is_symmetric(rect));
  const std::vector<double> s = {1, 2, 2, 3}, ns = {1, 2, 2.5, 3};
  EXPECT_TRUE(gp::is_symmetric(gp::matrix_view<const double>(s.data(), 2, 2)));
  EXPECT_FALSE(gp::is_symmetric(gp::matrix_view<const double>(ns.data(), 2, 2)));
}

TEST(host_solve, gpu_row_strategy_rule) {
  // A thread per row on the GPU exactly for known short rows of at most
  // solve_thread_row_entries entries in a matrix with an entry.
  const auto poisson = gp::poisson2d<float, std::int32_t>(9);
  EXPECT_TRUE(gp::detail::solve_thread_per_row(poisson.stats()));
  const auto spd = gp::random_spd<float, std::int32_t>(501, 6, 5);
  ASSERT_GT(spd.stats().max_row, gp::detail::solve_thread_row_entries);
  EXPECT_FALSE(gp::detail::solve_thread_per_row(spd.stats()));
  gp::csr_row_stats unknown = poisson.stats();
  unknown.known = false;
  EXPECT_FALSE(gp::detail::solve_thread_per_row(unknown));
  const gp::csr_matrix<float, std::int32_t> empty(7, 7);
  EXPECT_FALSE(gp::detail::solve_thread_per_row(empty.stats()));
}
