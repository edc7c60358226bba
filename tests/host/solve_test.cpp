// CPU backend of the iterative solvers: each method against a direct dense
// solve on small systems, dense matrices, and the edge cases.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprim/solve.hpp"
#include "support/solve_cases.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

struct host_side {
  template <class T, class I>
  gp::solve_result csr(gp::solve_method m, const gp::csr_matrix<T, I>& A, const std::vector<T>& b,
                       std::vector<T>& x, const gp::solve_options& opts) {
    return gp::solve(gp::host, m, A, b, x, opts);
  }
  template <class T>
  gp::solve_result dense(gp::solve_method m, const std::vector<T>& a, std::size_t n,
                         const std::vector<T>& b, std::vector<T>& x,
                         const gp::solve_options& opts) {
    return gp::solve(gp::host, m, gp::matrix_view<const T>(a.data(), n, n), b, x, opts);
  }
};

}  // namespace

TEST(host_solve, float_int32_against_direct) {
  host_side side;
  auto rng = make_rng(401);
  check_small_systems<float, std::int32_t>(side, rng);
}
TEST(host_solve, double_int32_against_direct) {
  host_side side;
  auto rng = make_rng(402);
  check_small_systems<double, std::int32_t>(side, rng);
}
TEST(host_solve, double_int64_against_direct) {
  host_side side;
  auto rng = make_rng(403);
  check_small_systems<double, std::int64_t>(side, rng);
}
TEST(host_solve, float_int64_against_direct) {
  host_side side;
  auto rng = make_rng(404);
  check_small_systems<float, std::int64_t>(side, rng);
}
TEST(host_solve, dense_matrices) {
  host_side side;
  auto rng = make_rng(405);
  check_dense_systems<float>(side, rng);
  check_dense_systems<double>(side, rng);
}
TEST(host_solve, edges) {
  host_side side;
  check_solver_edges(side);
}
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
