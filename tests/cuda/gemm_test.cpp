// gp::gemm: the cases of the GPU alone (cuBLAS / cuBLASLt), from plain C++:
// TF32 only on request. The cases of both backends are in
// tests/sides/gemm_test.cpp.
#include <gtest/gtest.h>

#include "gpuprim/gemm.hpp"
#include "support/cuda_fixture.hpp"
#include "support/gemm_cases.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, gemm_tf32_only_on_request) {
  auto rng = make_rng(413);
  // fp32 default: fp32 accuracy at k = 1024 (TF32 would miss this bound).
  check_gemm<cuda_side, float, float>(rng, {64, 64, 1024}, gp::matrix_op::none, gp::matrix_op::none,
                                      1.0, 0.0);
  check_gemm<cuda_side, float, float>(rng, {64, 64, 1024}, gp::matrix_op::none, gp::matrix_op::none,
                                      1.0, 0.0, 0, gp::precision::tf32);
}
