// GPU SpMV (every kernel: row per thread, sub-warps, merge path, and the
// automatic choice) against the double reference, from plain C++.
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

namespace {

template <class T, class I>
struct value_and_index {
  using value = T;
  using index = I;
};

template <class P>
class cuda_spmv : public typed_cuda_test<P> {};
using spmv_types =
    ::testing::Types<value_and_index<float, std::int32_t>, value_and_index<double, std::int32_t>,
                     value_and_index<float, std::int64_t>, value_and_index<double, std::int64_t>>;
TYPED_TEST_SUITE(cuda_spmv, spmv_types);

constexpr gp::spmv_kernel all_kernels[] = {gp::spmv_kernel::automatic,
                                           gp::spmv_kernel::row_per_thread,
                                           gp::spmv_kernel::subwarp, gp::spmv_kernel::merge_path,
                                           gp::spmv_kernel::staged_rows};

template <class T, class I>
void check_spmv(const gp::csr_matrix<T, I>& A, T alpha, T beta, std::mt19937_64& rng,
                bool drop_stats = false) {
  const auto x = random_vector<T>(A.cols(), rng);
  const auto y0 = random_vector<T>(A.rows(), rng);
  const auto expected = reference_spmv(alpha, A, x, beta, y0);
  const auto scale = spmv_error_scale(A, x);
  const gp::device_csr_matrix<T, I> dA(A);
  const auto dx = gp::to_device(x);
  for (const gp::spmv_kernel kernel : all_kernels) {
    auto dy = gp::to_device(y0);
    if (beta == T(0)) dy.fill_bytes(0xff);  // NaN: must not be read
    auto view = dA.view();
    if (drop_stats) view.stats = {};
    gp::spmv(gp::cuda, alpha, view, dx, beta, dy, kernel);
    const auto y = gp::to_host(dy);
    for (std::size_t r = 0; r < A.rows(); ++r) {
      const double tol = 64 * std::numeric_limits<T>::epsilon() *
                             (std::abs(double(alpha)) * scale[r] + std::abs(double(beta)) * 2) +
                         1e-300;
      ASSERT_NEAR(double(y[r]), expected[r], tol)
          << "row " << r << " of " << A.rows() << ", kernel " << static_cast<int>(kernel);
    }
  }
}

}  // namespace

TYPED_TEST(cuda_spmv, every_kernel_at_every_size) {
  using T = typename TypeParam::value;
  using I = typename TypeParam::index;
  auto rng = make_rng(501);
  for (const std::size_t n : standard_sizes()) {
    for (const std::size_t mean : {1, 5, 40}) {
      if (n > 100000 && mean == 40) continue;
      const auto A = random_csr<T, I>(n, n ? n : 1, mean, rng);
      check_spmv<T, I>(A, T(1), T(0), rng);
      check_spmv<T, I>(A, T(-0.5), T(2), rng, true);
    }
  }
}

TYPED_TEST(cuda_spmv, uneven_rows_and_rectangular) {
  using T = typename TypeParam::value;
  using I = typename TypeParam::index;
  auto rng = make_rng(502);
  // Rows longer than a merge-path tile (2048 items), across tiles.
  check_spmv<T, I>(random_csr<T, I>(20000, 30000, 3, rng, 997, 25000), T(1.5), T(0), rng);
  check_spmv<T, I>(random_csr<T, I>(3, 100000, 2, rng, 1, 90000), T(1), T(1), rng);
  check_spmv<T, I>(random_csr<T, I>(10000, 7, 0, rng), T(1), T(1), rng);  // all rows empty
  check_spmv<T, I>(gp::rmat<T, I>(14, 16, 9), T(1), T(0), rng);
  check_spmv<T, I>(gp::poisson2d<T, I>(100), T(1), T(0), rng);
}

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
