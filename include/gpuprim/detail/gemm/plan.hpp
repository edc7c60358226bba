// The matrix multiply's problem description, shared by both backends: the
// operand ops and precision a call asks for (matrix_op and precision, part
// of the public API in gpuprim/gemm.hpp) and the checked problem.
#pragma once

#include <cstddef>

namespace gpuprim {

// op(X): X itself or its transpose.
enum class matrix_op { none, transpose };

// How float products are computed. standard: in the inputs' own precision
// (fp32 products of fp32 inputs; half / bfloat16 products exact in fp32
// accumulators). tf32: fp32 inputs rounded to TensorFloat-32 on tensor
// cores (GPU only; much faster, about 3 decimal digits), never used unless
// asked for. The host computes tf32 requests in full fp32.
enum class precision { standard, tf32 };

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
