// The GPU solvers: the cases of the GPU alone (a larger Poisson system
// against the host's iterations ...). The cases of both backends are in
// tests/sides/solve_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprim/solve.hpp"
#include "support/cuda_fixture.hpp"
#include "support/solve_cases.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, solve_matches_host_iteration_counts) {
  // Poisson 128^2 in double: the GPU's CG takes the host's iterations
  // (the same arithmetic up to summation order) and meets the tolerance.
  const auto A = gp::poisson2d<double, std::int32_t>(128);
  std::vector<double> b(A.rows(), 1.0), xh(A.rows()), xd(A.rows());
  gp::solve_options opts;
  opts.tolerance = 1e-9;
  opts.keep_history = true;
  const auto host = gp::solve_cg(gp::host, A, b, xh, opts);
  const gp::device_csr_matrix<double, std::int32_t> dA(A);
  const auto db = gp::to_device(b);
  auto dx = gp::to_device(xd);
  const auto dev = gp::solve(gp::cuda, gp::solve_method::cg, dA, db, dx, opts);
  xd = gp::to_host(dx);
  EXPECT_TRUE(host.converged);
  EXPECT_TRUE(dev.converged);
  EXPECT_NEAR(double(dev.iterations), double(host.iterations), 3);
  EXPECT_LE(dev.residual, 1e-9);
  EXPECT_EQ(dev.history.size(), dev.iterations + 1);
  EXPECT_LE(relative_error(xd, std::vector<double>(xh.begin(), xh.end())), 1e-7);
}
