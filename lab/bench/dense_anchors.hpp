// Vendor anchors of the dense family (bench/anchors_cublas_dense.cu): what a
// CUDA programmer would otherwise call, raw cuBLAS on row-major data,
// measured in the same run on the same inputs.
#pragma once

#include <cstddef>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::bench {

#if GPUPRIM_HAS_CUDA
enum class cublas_gemm_mode { fp32, tf32, bf16 };

class cublas_dense {
 public:
  explicit cublas_dense(stream_t stream);
  ~cublas_dense();
  cublas_dense(const cublas_dense&) = delete;
  cublas_dense& operator=(const cublas_dense&) = delete;

  // out (cols x rows, packed) = in^T (rows x cols, packed), through
  // cublasSgeam / cublasDgeam (op T, beta 0).
  void transpose(const float* in, float* out, std::size_t rows, std::size_t cols) const;
  void transpose(const double* in, double* out, std::size_t rows, std::size_t cols) const;
  static const char* transpose_name(bool f64) { return f64 ? "cublasDgeam" : "cublasSgeam"; }

  // C = A B, row-major packed A (m x k), B (k x n), C (m x n, float): fp32
  // through cublasSgemm (default math, no TF32), tf32 through cublasGemmEx
  // with CUBLAS_COMPUTE_32F_FAST_TF32, bf16 (A and B bfloat16) through
  // cublasGemmEx with fp32 compute.
  void gemm(cublas_gemm_mode mode, const void* a, const void* b, float* c, std::size_t m,
            std::size_t n, std::size_t k) const;
  static const char* gemm_name(cublas_gemm_mode mode);

 private:
  void* handle_ = nullptr;
};
#endif

}  // namespace gpuprim::bench
