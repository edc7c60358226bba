// GPU SpMV from plain C++: the cases of the GPU alone. Every kernel against
// the double reference, on both backends, is in tests/sides/spmv_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "support/cuda_fixture.hpp"
#include "support/sparse_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, spmv_is_deterministic_and_checks_sizes) {
  auto rng = make_rng(503);
  const auto A = gp::rmat<float, int>(15, 16, 4);
  const gp::device_csr_matrix<float, int> dA(A);
  const auto dx = gp::to_device(random_vector<float>(A.cols(), rng));
  gp::device_vector<float> y1(A.rows()), y2(A.rows());
  gp::spmv(gp::cuda, 1.0f, dA, dx, 0.0f, y1, gp::spmv_kernel::merge_path);
  gp::spmv(gp::cuda, 1.0f, dA, dx, 0.0f, y2, gp::spmv_kernel::merge_path);
  EXPECT_EQ(gp::to_host(y1), gp::to_host(y2));
  gp::device_vector<float> short_y(A.rows() - 1);
  short_y.fill_bytes(0x11);
  EXPECT_THROW(gp::spmv(gp::cuda, 1.0f, dA, dx, 0.0f, short_y), std::invalid_argument);
  for (float v : gp::to_host(short_y))
    ASSERT_EQ(v, gp::to_host(short_y)[0]);
  // Round trip of the matrix.
  const auto back = dA.to_host();
  EXPECT_EQ(back.row_offsets(), A.row_offsets());
  EXPECT_EQ(back.values(), A.values());
  // Statistics measured on the device match the host's.
  const auto s = gp::detail::on_cuda("spmv", [&] {
    return gp::detail::cuda_row_stats<int>(A.rows(), dA.view().row_offsets.data(), nullptr);
  });
  EXPECT_EQ(s.max_row, A.stats().max_row);
  EXPECT_EQ(s.empty_rows, A.stats().empty_rows);
  EXPECT_EQ(s.nnz, A.nnz());
}
