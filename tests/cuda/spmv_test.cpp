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

// The hot-columns kernel reads values and recoded column indices in
// 16-byte groups when both arrays start 16-byte aligned, else one element
// at a time: a view whose arrays start one element into their buffers
// takes the scalar loads, and agrees with the aligned view bit for bit.
template <class T, class I>
void check_hot_columns_unaligned(std::uint64_t seed) {
  auto rng = make_rng(seed);
  const auto A = gp::rmat<T, I>(14, 16, 8);
  gp::device_csr_matrix<T, I> dA(A);
  dA.prepare_spmv();
  ASSERT_GT(dA.stats().hot_columns, 0u);
  const auto aligned = dA.view();
  std::vector<T> values(1, T(0));
  std::vector<I> cols(1, I(0));
  const auto hv = gp::to_host(aligned.values);
  const auto hc = gp::to_host(aligned.hot.col_indices);
  values.insert(values.end(), hv.begin(), hv.end());
  cols.insert(cols.end(), hc.begin(), hc.end());
  const auto shifted_values = gp::to_device(values);
  const auto shifted_cols = gp::to_device(cols);
  auto shifted = aligned;
  shifted.values = gp::device_span<const T>(shifted_values.data() + 1, A.nnz());
  shifted.hot.col_indices = gp::device_span<const I>(shifted_cols.data() + 1, A.nnz());
  const auto x = random_vector<T>(A.cols(), rng);
  const auto y0 = random_vector<T>(A.rows(), rng);
  const auto dx = gp::to_device(x);
  gp::device_vector<T> y1 = gp::to_device(y0), y2 = gp::to_device(y0);
  gp::spmv(gp::cuda, T(2), aligned, dx, T(-1), y1, gp::spmv_kernel::hot_columns);
  gp::spmv(gp::cuda, T(2), shifted, dx, T(-1), y2, gp::spmv_kernel::hot_columns);
  const auto h1 = gp::to_host(y1), h2 = gp::to_host(y2);
  EXPECT_EQ(h1, h2);
  const auto expected = reference_spmv(2.0, A, x, -1.0, y0);
  const auto scale = spmv_error_scale(A, x);
  for (std::size_t r = 0; r < A.rows(); ++r) {
    const double tol = 64 * std::numeric_limits<T>::epsilon() * (2 * scale[r] + 2) + 1e-30;
    ASSERT_NEAR(double(h2[r]), expected[r], tol) << "row " << r;
  }
}

TEST_F(cuda_test, spmv_hot_columns_unaligned_arrays) {
  check_hot_columns_unaligned<float, int>(506);
  check_hot_columns_unaligned<float, std::int64_t>(507);
  check_hot_columns_unaligned<double, int>(508);
  check_hot_columns_unaligned<double, std::int64_t>(509);
}
