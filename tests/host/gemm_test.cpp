// gp::gemm: the cases of the host alone (OpenBLAS, or the library's loop
// without it): zero sizes, NaN, refusals, batches, the low-precision types.
// The cases of both backends are in tests/sides/gemm_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gpuprim/gemm.hpp"
#include "support/dense_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_gemm_edges, zero_sizes) {
  std::vector<float> a(6, 1.0f), b(6, 1.0f), c(4, 5.0f);
  // k = 0: C = beta C.
  gp::gemm(gp::host, gp::matrix_view<const float>(a.data(), 2, 0),
           gp::matrix_view<const float>(b.data(), 0, 2), gp::matrix_view<float>(c.data(), 2, 2),
           1.0f, 2.0f);
  EXPECT_EQ(c, std::vector<float>(4, 10.0f));
  c.assign(4, std::numeric_limits<float>::quiet_NaN());
  gp::gemm(gp::host, gp::matrix_view<const float>(a.data(), 2, 0),
           gp::matrix_view<const float>(b.data(), 0, 2), gp::matrix_view<float>(c.data(), 2, 2),
           1.0f, 0.0f);
  EXPECT_EQ(c, std::vector<float>(4, 0.0f));
  // m = 0 or n = 0: nothing happens.
  gp::gemm(gp::host, gp::matrix_view<const float>(a.data(), 0, 3),
           gp::matrix_view<const float>(b.data(), 3, 2), gp::matrix_view<float>(c.data(), 0, 2));
  gp::gemm(gp::host, gp::matrix_view<const float>(a.data(), 2, 3),
           gp::matrix_view<const float>(b.data(), 3, 0), gp::matrix_view<float>(c.data(), 2, 0));
  EXPECT_EQ(c, std::vector<float>(4, 0.0f));
}

TEST(host_gemm_edges, nan_in_inputs_propagates) {
  std::vector<double> a{1, std::numeric_limits<double>::quiet_NaN(), 3, 4}, b{1, 0, 0, 1}, c(4);
  gp::gemm(gp::host, gp::matrix_view<const double>(a.data(), 2, 2),
           gp::matrix_view<const double>(b.data(), 2, 2), gp::matrix_view<double>(c.data(), 2, 2));
  EXPECT_TRUE(std::isnan(c[1]));
  EXPECT_EQ(c[2], 3.0);
}

TEST(host_gemm_edges, shapes_aliasing_and_precision_are_checked) {
  std::vector<float> a(12, 1.0f), b(12, 1.0f), c(9, 7.0f);
  const gp::matrix_view<const float> A(a.data(), 3, 4), B(b.data(), 4, 3);
  EXPECT_THROW(gp::gemm(gp::host, A, gp::matrix_view<const float>(b.data(), 3, 4),
                        gp::matrix_view<float>(c.data(), 3, 3)),
               std::invalid_argument);
  EXPECT_THROW(gp::gemm(gp::host, A, B, gp::matrix_view<float>(c.data(), 3, 2)),
               std::invalid_argument);
  EXPECT_EQ(c, std::vector<float>(9, 7.0f));
  // C overlapping A or B.
  EXPECT_THROW(gp::gemm(gp::host, A, B, gp::matrix_view<float>(a.data(), 3, 3)),
               std::invalid_argument);
  EXPECT_THROW(gp::gemm(gp::host, A, B, gp::matrix_view<float>(b.data() + 2, 3, 3)),
               std::invalid_argument);
  // A and B may overlap each other (both are only read).
  gp::gemm(gp::host, A, gp::matrix_view<const float>(a.data(), 4, 3),
           gp::matrix_view<float>(c.data(), 3, 3));
  EXPECT_EQ(c, std::vector<float>(9, 4.0f));
  std::vector<double> ad(4), cd(4);
  EXPECT_THROW(gp::gemm(gp::host, gp::matrix_view<const double>(ad.data(), 2, 2),
                        gp::matrix_view<const double>(ad.data(), 2, 2),
                        gp::matrix_view<double>(cd.data(), 2, 2), 1.0, 0.0, gp::matrix_op::none,
                        gp::matrix_op::none, gp::precision::tf32),
               std::invalid_argument);
}

TEST(host_gemm_edges, strided_batch) {
  auto rng = make_rng(313);
  const std::size_t m = 13, n = 11, k = 9, batch = 5;
  const auto a = random_matrix<float>(batch * m * k, rng);
  const auto b = random_matrix<float>(batch * k * n, rng);
  std::vector<float> c(batch * m * n, std::numeric_limits<float>::quiet_NaN());
  gp::gemm_batched(gp::host, gp::matrix_view<const float>(a.data(), m, k), m * k,
                   gp::matrix_view<const float>(b.data(), k, n), k * n,
                   gp::matrix_view<float>(c.data(), m, n), m * n, batch);
  for (std::size_t i = 0; i < batch; ++i) {
    const std::vector<float> ai(a.begin() + i * m * k, a.begin() + (i + 1) * m * k);
    const std::vector<float> bi(b.begin() + i * k * n, b.begin() + (i + 1) * k * n);
    const std::vector<float> ci(c.begin() + i * m * n, c.begin() + (i + 1) * m * n);
    const auto expected = reference_gemm(ai, k, gp::matrix_op::none, bi, n, gp::matrix_op::none, ci,
                                         n, m, n, k, 1.0, 0.0);
    ASSERT_TRUE(gemm_close(ci, n, expected, m, n, k, double(k))) << "matrix " << i;
  }
  // Outputs of a batch that overlap each other are refused.
  EXPECT_THROW(gp::gemm_batched(gp::host, gp::matrix_view<const float>(a.data(), m, k), m * k,
                                gp::matrix_view<const float>(b.data(), k, n), k * n,
                                gp::matrix_view<float>(c.data(), m, n), n, batch),
               std::invalid_argument);
}

TEST(host_gemm_edges, low_precision_types_round_to_nearest_even) {
  EXPECT_EQ(gp::bfloat16(1.0f).bits, 0x3F80);
  EXPECT_EQ(static_cast<float>(gp::bfloat16(1.00390625f)), 1.0f);  // tie -> even
  EXPECT_EQ(gp::half(1.0f).bits, 0x3C00);
  EXPECT_EQ(gp::half(65504.0f).bits, 0x7BFF);
  EXPECT_EQ(gp::half(1e6f).bits, 0x7C00);
  EXPECT_EQ(static_cast<float>(gp::half::from_bits(0x0001)), 0x1.0p-24f);
  EXPECT_EQ(gp::half(0x1.0p-24f).bits, 0x0001);
  EXPECT_EQ(static_cast<float>(gp::half(-2.5f)), -2.5f);
  EXPECT_TRUE(std::isnan(static_cast<float>(gp::half(std::numeric_limits<float>::quiet_NaN()))));
}
