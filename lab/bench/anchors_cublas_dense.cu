// cuBLAS anchors of the dense family (bench/dense_anchors.hpp). Row-major
// data is column-major data transposed: C = A B row-major is C^T = B^T A^T
// column-major, so (B, A) go in that order with n and m swapped.
#include <cublas_v2.h>

#include <string>

#include "dense_anchors.hpp"
#include "enum_name.hpp"
#include "gpuprim/core/error.hpp"

namespace gpuprim::bench {
namespace {

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw cuda_error(static_cast<int>(status), call, "cuBLAS anchor",
                     std::string("cuBLAS status ") + cublasGetStatusString(status));
  }
}

cublasHandle_t as_handle(void* h) {
  return static_cast<cublasHandle_t>(h);
}

// out = in^T for a row-major rows x cols `in` through geam (cublasSgeam or
// cublasDgeam, named `call`): column-major, in is cols x rows (ld cols)
// and out rows x cols (ld rows) = in^T.
template <class T, class Geam>
void geam_transpose(Geam geam, const char* call, cublasHandle_t handle, const T* in, T* out,
                    std::size_t rows, std::size_t cols) {
  const T one = 1, zero = 0;
  const int r = static_cast<int>(rows), c = static_cast<int>(cols);
  check(geam(handle, CUBLAS_OP_T, CUBLAS_OP_N, r, c, &one, in, c, &zero, out, r, out, r), call);
}

}  // namespace

cublas_dense::cublas_dense(stream_t stream) {
  cublasHandle_t h = nullptr;
  check(cublasCreate(&h), "cublasCreate");
  handle_ = h;
  check(cublasSetStream(h, reinterpret_cast<cudaStream_t>(stream)), "cublasSetStream");
}

cublas_dense::~cublas_dense() {
  if (handle_) cublasDestroy(as_handle(handle_));
}

void cublas_dense::transpose(const float* in, float* out, std::size_t rows,
                             std::size_t cols) const {
  geam_transpose(cublasSgeam, "cublasSgeam", as_handle(handle_), in, out, rows, cols);
}

void cublas_dense::transpose(const double* in, double* out, std::size_t rows,
                             std::size_t cols) const {
  geam_transpose(cublasDgeam, "cublasDgeam", as_handle(handle_), in, out, rows, cols);
}

void cublas_dense::gemm(cublas_gemm_mode mode, const void* a, const void* b, float* c,
                        std::size_t m, std::size_t n, std::size_t k) const {
  const float one = 1.0f, zero = 0.0f;
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  if (mode == cublas_gemm_mode::fp32) {
    check(cublasSgemm(as_handle(handle_), CUBLAS_OP_N, CUBLAS_OP_N, ni, mi, ki, &one,
                      static_cast<const float*>(b), ni, static_cast<const float*>(a), ki, &zero, c,
                      ni),
          "cublasSgemm");
    return;
  }
  const bool bf16 = mode == cublas_gemm_mode::bf16;
  const cudaDataType_t in = bf16 ? CUDA_R_16BF : CUDA_R_32F;
  check(cublasGemmEx(as_handle(handle_), CUBLAS_OP_N, CUBLAS_OP_N, ni, mi, ki, &one, b, in, ni, a,
                     in, ki, &zero, c, CUDA_R_32F, ni,
                     bf16 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

const char* cublas_dense::gemm_name(cublas_gemm_mode mode) {
  return enum_name(mode, {"cublasSgemm", "cublasGemmEx (TF32)", "cublasGemmEx (bf16 in, fp32)"});
}

}  // namespace gpuprim::bench
