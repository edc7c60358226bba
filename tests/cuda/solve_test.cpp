// GPU solvers: each method against a direct dense solve on small systems,
// dense matrices, and the edge cases (the checks of support/solve_cases.hpp,
// shared with the host tests), plus a larger Poisson system.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprim/solve.hpp"
#include "support/cuda_fixture.hpp"
#include "support/solve_cases.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

struct cuda_side {
  int check_every = 0;
  template <class T, class I>
  gp::solve_result csr(gp::solve_method m, const gp::csr_matrix<T, I>& A, const std::vector<T>& b,
                       std::vector<T>& x, gp::solve_options opts) {
    opts.check_every = check_every;
    const gp::device_csr_matrix<T, I> dA(A);
    const auto db = gp::to_device(b);
    auto dx = gp::to_device(x);
    const gp::solve_result r = gp::solve(gp::cuda, m, dA, db, dx, opts);
    x = gp::to_host(dx);
    return r;
  }
  template <class T>
  gp::solve_result dense(gp::solve_method m, const std::vector<T>& a, std::size_t n,
                         const std::vector<T>& b, std::vector<T>& x, gp::solve_options opts) {
    opts.check_every = check_every;
    const auto da = gp::to_device(a);
    const auto db = gp::to_device(b);
    auto dx = gp::to_device(x);
    const gp::solve_result r =
        gp::solve(gp::cuda, m, gp::device_matrix_view<const T>(da.data(), n, n), db, dx, opts);
    x = gp::to_host(dx);
    return r;
  }
};

}  // namespace

TEST_F(cuda_test, solve_float_int32_against_direct) {
  cuda_side side;
  auto rng = make_rng(601);
  check_small_systems<float, std::int32_t>(side, rng);
}
TEST_F(cuda_test, solve_double_int32_against_direct) {
  cuda_side side;
  auto rng = make_rng(602);
  check_small_systems<double, std::int32_t>(side, rng);
}
TEST_F(cuda_test, solve_double_int64_against_direct_checking_every_iteration) {
  cuda_side side{1};
  auto rng = make_rng(603);
  check_small_systems<double, std::int64_t>(side, rng);
}
TEST_F(cuda_test, solve_float_int64_against_direct) {
  cuda_side side{5};
  auto rng = make_rng(604);
  check_small_systems<float, std::int64_t>(side, rng);
}
TEST_F(cuda_test, solve_dense_matrices) {
  cuda_side side;
  auto rng = make_rng(605);
  check_dense_systems<float>(side, rng);
  check_dense_systems<double>(side, rng);
}
TEST_F(cuda_test, solve_edges) {
  cuda_side side;
  check_solver_edges(side);
  cuda_side every{1};
  check_solver_edges(every);
}
TEST_F(cuda_test, solve_matches_host_iteration_counts) {
  // Poisson 128^2 in double: the GPU's CG takes the host's iterations
  // (the same arithmetic up to summation order) and meets the tolerance.
  const auto A = gp::poisson2d<double, std::int32_t>(128);
  std::vector<double> b(A.rows(), 1.0), xh(A.rows()), xd(A.rows());
  gp::solve_options opts;
  opts.tolerance = 1e-9;
  opts.keep_history = true;
  const auto host = gp::solve_cg(gp::host, A, b, xh, opts);
  cuda_side side;
  const auto dev = side.csr(gp::solve_method::cg, A, b, xd, opts);
  EXPECT_TRUE(host.converged);
  EXPECT_TRUE(dev.converged);
  EXPECT_NEAR(double(dev.iterations), double(host.iterations), 3);
  EXPECT_LE(dev.residual, 1e-9);
  EXPECT_EQ(dev.history.size(), dev.iterations + 1);
  EXPECT_LE(relative_error(xd, std::vector<double>(xh.begin(), xh.end())), 1e-7);
}
TEST_F(cuda_test, solve_stops_and_says_why) {
  cuda_side side;
  check_solver_stops(side);
  cuda_side every{1};
  check_solver_stops(every);
}
