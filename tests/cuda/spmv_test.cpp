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

// A large power-law matrix with its column analysis: the automatic choice
// takes the hot-columns kernel (by choose_spmv_kernel's rule), which is
// deterministic and agrees with the merge path up to summation order;
// y = alpha A x + beta y with beta != 0 too.
TEST_F(cuda_test, spmv_hot_columns_chosen_for_large_power_law) {
  auto rng = make_rng(505);
  const auto A = gp::rmat<float, int>(19, 16, 6);
  ASSERT_GE(A.nnz(), gp::spmv_hot_min_nnz);
  gp::device_csr_matrix<float, int> dA(A);
  EXPECT_EQ(gp::choose_spmv_kernel(dA.stats()).kernel, gp::spmv_kernel::merge_path);
  dA.prepare_spmv();
  const auto& s = dA.stats();
  ASSERT_GT(s.hot_columns, 0u);
  EXPECT_GE(static_cast<double>(s.hot_entries), gp::spmv_hot_min_share * double(A.nnz()));
  EXPECT_EQ(gp::choose_spmv_kernel(s).kernel, gp::spmv_kernel::hot_columns);
  const auto x = random_vector<float>(A.cols(), rng);
  const auto y0 = random_vector<float>(A.rows(), rng);
  const auto dx = gp::to_device(x);
  gp::device_vector<float> y1 = gp::to_device(y0), y2 = gp::to_device(y0), y3 = gp::to_device(y0);
  gp::spmv(gp::cuda, 1.5f, dA, dx, -1.0f, y1);
  gp::spmv(gp::cuda, 1.5f, dA, dx, -1.0f, y2, gp::spmv_kernel::hot_columns);
  gp::spmv(gp::cuda, 1.5f, dA, dx, -1.0f, y3, gp::spmv_kernel::merge_path);
  const auto h1 = gp::to_host(y1), h3 = gp::to_host(y3);
  EXPECT_EQ(h1, gp::to_host(y2));
  const auto expected = reference_spmv(1.5, A, x, -1.0, y0);
  const auto scale = spmv_error_scale(A, x);
  for (std::size_t r = 0; r < A.rows(); ++r) {
    const double tol = 64 * std::numeric_limits<float>::epsilon() * (1.5 * scale[r] + 2) + 1e-30;
    ASSERT_NEAR(h1[r], expected[r], tol) << "row " << r;
    ASSERT_NEAR(h3[r], expected[r], tol) << "row " << r;
  }
}
