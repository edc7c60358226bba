// gp::gemm on each backend (support/side_test.hpp; the host: OpenBLAS or the
// library's loop, the GPU: cuBLAS / cuBLASLt) against a double-precision
// reference: every type pair, op combination, odd shapes, leading
// dimensions, alpha / beta (beta = 0 with NaN in C). The backends' own
// cases are in tests/host/gemm_test.cpp and tests/cuda/gemm_test.cpp.
#include <gtest/gtest.h>

#include <utility>

#include "gpuprim/gemm.hpp"
#include "support/gemm_cases.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

SIDE_TYPED_SUITE(gemm, gemm_pairs);

SIDE_TYPED_TEST(gemm, every_shape_and_op_against_double_reference) {
  using In = typename TypeParam::in;
  using Out = typename TypeParam::out;
  auto rng = make_rng(411);
  for (const gemm_case& g : gemm_cases())
    for (const auto op_a : {gp::matrix_op::none, gp::matrix_op::transpose})
      for (const auto op_b : {gp::matrix_op::none, gp::matrix_op::transpose})
        check_gemm<side, In, Out>(rng, g, op_a, op_b, 1.0, 0.0);
}

SIDE_TYPED_TEST(gemm, alpha_beta_and_leading_dimensions) {
  using In = typename TypeParam::in;
  using Out = typename TypeParam::out;
  auto rng = make_rng(412);
  for (const auto [op_a, op_b] : {std::pair{gp::matrix_op::none, gp::matrix_op::transpose},
                                  {gp::matrix_op::transpose, gp::matrix_op::none}})
    for (const auto [alpha, beta] :
         {std::pair{1.0, 1.0}, {2.0, 0.0}, {-0.5, 2.0}, {0.0, 3.0}, {0.0, 0.0}, {1.5, -1.0}})
      check_gemm<side, In, Out>(rng, {37, 29, 43}, op_a, op_b, alpha, beta, 5);
}
