// The matrix multiply's public vocabulary (gpuprim/gemm.hpp is the header to
// include): the operand ops and the precision a call asks for.
#pragma once

namespace gpuprim {

// op(X): X itself or its transpose.
enum class matrix_op { none, transpose };

// How float products are computed. standard: in the inputs' own precision
// (fp32 products of fp32 inputs; half / bfloat16 products exact in fp32
// accumulators). tf32: fp32 inputs rounded to TensorFloat-32 on tensor
// cores (GPU only; much faster, about 3 decimal digits), never used unless
// asked for. The host computes tf32 requests in full fp32.
enum class precision { standard, tf32 };

}  // namespace gpuprim
