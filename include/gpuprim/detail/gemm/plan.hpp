// The matrix multiply's problem description, shared by both backends: the
// checked problem made from the operand ops and precision a call asks for
// (matrix_op and precision, gpuprim/gemm_types.hpp).
#pragma once

#include <cstddef>

#include "gpuprim/gemm_types.hpp"

namespace gpuprim {

namespace detail {

enum class gemm_kind { f32, f64, bf16, f16 };

// C[i] = alpha op(A[i]) op(B[i]) + beta C[i] for i < batch; op(A) is m x k,
// op(B) k x n, C m x n, all row-major with leading dimensions in elements,
// matrix i of each at data + i * stride. Checked by the public entry points.
struct gemm_problem {
  matrix_op op_a = matrix_op::none;
  matrix_op op_b = matrix_op::none;
  precision mode = precision::standard;
  std::size_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  std::size_t lda = 0;
  const void* b = nullptr;
  std::size_t ldb = 0;
  void* c = nullptr;
  std::size_t ldc = 0;
  double alpha = 1.0;
  double beta = 0.0;
  std::size_t batch = 1;
  std::size_t stride_a = 0, stride_b = 0, stride_c = 0;
};

}  // namespace detail
}  // namespace gpuprim
