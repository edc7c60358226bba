// The gp::gemm check both backends share, run on a `Side`
// (support/sides.hpp): random A, B, C (C all NaN when beta = 0, so that it
// must not be read) with leading dimensions `extra` past the rows, against
// the double-precision reference of dense_reference.hpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "gpuprim/gemm.hpp"
#include "support/dense_reference.hpp"
#include "support/sides.hpp"

namespace gpuprim::test {

template <class Side, class In, class Out>
void check_gemm(std::mt19937_64& rng, const gemm_case& g, matrix_op op_a, matrix_op op_b,
                double alpha, double beta, std::size_t extra = 0,
                precision mode = precision::standard) {
  const bool ta = op_a == matrix_op::transpose, tb = op_b == matrix_op::transpose;
  const std::size_t a_rows = ta ? g.k : g.m, a_cols = ta ? g.m : g.k;
  const std::size_t b_rows = tb ? g.n : g.k, b_cols = tb ? g.k : g.n;
  const std::size_t lda = a_cols + extra, ldb = b_cols + extra, ldc = g.n + extra;
  const auto a = random_matrix<In>(a_rows * lda, rng);
  const auto b = random_matrix<In>(b_rows * ldb, rng);
  auto c = random_matrix<Out>(g.m * ldc, rng);
  if (beta == 0) std::fill(c.begin(), c.end(), std::numeric_limits<Out>::quiet_NaN());
  const auto expected =
      reference_gemm(a, lda, op_a, b, ldb, op_b, c, ldc, g.m, g.n, g.k, alpha, beta);
  const auto d_a = Side::put(a);
  const auto d_b = Side::put(b);
  auto d_c = Side::put(c);
  gemm(Side::backend(),
       typename Side::template matrix_view<const In>(d_a.data(), a_rows, a_cols, lda),
       typename Side::template matrix_view<const In>(d_b.data(), b_rows, b_cols, ldb),
       typename Side::template matrix_view<Out>(d_c.data(), g.m, g.n, ldc), static_cast<Out>(alpha),
       static_cast<Out>(beta), op_a, op_b, mode);
  const auto got = Side::get(d_c);
  const double eps = mode == precision::tf32 ? 0x1.0p-10 : 0.0;
  ASSERT_TRUE(
      gemm_close(got, ldc, expected, g.m, g.n, g.k, std::abs(alpha) * g.k + std::abs(beta), eps))
      << "ta " << ta << " tb " << tb << " alpha " << alpha << " beta " << beta;
}

// The type pairs gp::gemm is precompiled for: inputs, and C.
template <class In, class Out>
struct pair_of {
  using in = In;
  using out = Out;
};
using gemm_pairs = ::testing::Types<pair_of<float, float>, pair_of<double, double>,
                                    pair_of<bfloat16, float>, pair_of<half, float>>;

}  // namespace gpuprim::test
