// SpMV on each backend (support/side_test.hpp; on the GPU every kernel: row
// per thread, sub-warps, merge path, staged rows, and the automatic choice)
// against the double reference of support/sparse_reference.hpp. The
// backends' own cases are in tests/host/sparse_test.cpp and
// tests/cuda/spmv_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "support/side_test.hpp"
#include "support/sparse_reference.hpp"
#include "support/test_data.hpp"

namespace {

template <class T, class I>
struct value_and_index {
  using value = T;
  using index = I;
};
using spmv_types =
    ::testing::Types<value_and_index<float, std::int32_t>, value_and_index<double, std::int32_t>,
                     value_and_index<float, std::int64_t>, value_and_index<double, std::int64_t>>;
SIDE_TYPED_SUITE(spmv, spmv_types);

// y = alpha A x + beta y against the reference, with each kernel of the GPU
// (drop_stats: without the matrix's row statistics, which the automatic
// choice then measures) or the host's one loop. With beta = 0, y starts as
// NaN: it must not be read.
template <class T, class I>
void check_spmv(const gp::csr_matrix<T, I>& A, T alpha, T beta, std::mt19937_64& rng,
                bool drop_stats = false) {
  const auto x = random_vector<T>(A.cols(), rng);
  const auto y0 = random_vector<T>(A.rows(), rng);
  const auto expected = reference_spmv(alpha, A, x, beta, y0);
  const auto scale = spmv_error_scale(A, x);
  const auto dx = side::put(x);
  const auto check = [&](const std::vector<T>& y, int kernel) {
    for (std::size_t r = 0; r < A.rows(); ++r) {
      const double tol =
          64 * std::numeric_limits<T>::epsilon() *
              (std::abs(double(alpha)) * scale[r] + std::abs(double(beta)) * 2 + 1e-30) +
          1e-300;
      ASSERT_NEAR(double(y[r]), expected[r], tol)
          << "row " << r << " of " << A.rows() << ", kernel " << kernel;
    }
  };
  const auto y_start = [&] {
    return beta == T(0) ? side::filled_bytes<T>(A.rows(), 0xff) : side::put(y0);
  };
  if constexpr (on_cuda) {
    const gp::device_csr_matrix<T, I> dA(A);
    for (const gp::spmv_kernel kernel :
         {gp::spmv_kernel::automatic, gp::spmv_kernel::row_per_thread, gp::spmv_kernel::subwarp,
          gp::spmv_kernel::merge_path, gp::spmv_kernel::staged_rows}) {
      auto dy = y_start();
      auto view = dA.view();
      if (drop_stats) view.stats = {};
      gp::spmv(side::backend(), alpha, view, dx, beta, dy, kernel);
      check(side::get(dy), static_cast<int>(kernel));
    }
  } else {
    auto y = y_start();
    gp::spmv(side::backend(), alpha, A, dx, beta, y);
    check(y, 0);
  }
}

}  // namespace

SIDE_TYPED_TEST(spmv, matches_reference_at_every_size) {
  using T = typename TypeParam::value;
  using I = typename TypeParam::index;
  auto rng = make_rng(501);
  for (const std::size_t n : standard_sizes()) {
    for (const std::size_t mean : {1, 4, 5, 40}) {
      if (n > 100000 && mean == 40) continue;
      const auto A = random_csr<T, I>(n, n ? n : 1, mean, rng);
      check_spmv<T, I>(A, T(1), T(0), rng);
      check_spmv<T, I>(A, T(-0.5), T(2), rng, true);
    }
  }
}

SIDE_TYPED_TEST(spmv, uneven_rows_and_rectangular) {
  using T = typename TypeParam::value;
  using I = typename TypeParam::index;
  auto rng = make_rng(502);
  check_spmv<T, I>(random_csr<T, I>(5000, 3000, 3, rng, 97, 2500), T(1.5), T(0), rng);
  // Rows longer than a GPU merge-path tile (2048 items), across tiles.
  check_spmv<T, I>(random_csr<T, I>(20000, 30000, 3, rng, 997, 25000), T(1.5), T(0), rng);
  check_spmv<T, I>(random_csr<T, I>(3, 100000, 2, rng, 1, 90000), T(1), T(1), rng);
  check_spmv<T, I>(random_csr<T, I>(10000, 7, 0, rng), T(1), T(1), rng);  // all rows empty
  check_spmv<T, I>(gp::rmat<T, I>(14, 16, 9), T(1), T(0), rng);
  check_spmv<T, I>(gp::poisson2d<T, I>(100), T(1), T(0), rng);
}
