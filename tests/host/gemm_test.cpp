// gp::gemm: the cases of the host alone (OpenBLAS, or the library's loop
// without it): NaN, the low-precision types. The cases of both backends are
// in tests/sides/gemm_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gpuprim/gemm.hpp"

namespace gp = gpuprim;

TEST(host_gemm_edges, nan_in_inputs_propagates) {
  std::vector<double> a{1, std::numeric_limits<double>::quiet_NaN(), 3, 4}, b{1, 0, 0, 1}, c(4);
  gp::gemm(gp::host, gp::matrix_view<const double>(a.data(), 2, 2),
           gp::matrix_view<const double>(b.data(), 2, 2), gp::matrix_view<double>(c.data(), 2, 2));
  EXPECT_TRUE(std::isnan(c[1]));
  EXPECT_EQ(c[2], 3.0);
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
