// The production GPU gp::gemm: cuBLAS, on a handle kept per thread and device.
//
// cuBLAS is column-major; a row-major matrix X with leading dimension ld is
// the column-major X^T with the same ld. So row-major C = op(A) op(B) is
// column-major C^T = op(B)^T op(A)^T: cuBLAS gets (B, A) in that order, with
// n and m swapped and the same op flags. fp32 runs with
// CUBLAS_COMPUTE_32F (no TF32) unless precision::tf32 asks for
// CUBLAS_COMPUTE_32F_FAST_TF32; bfloat16 / half inputs go through
// cublasLtMatmul with fp32 accumulation and fp32 output. The special cases
// of the API (k = 0 or alpha = 0: C = beta C, reading neither A nor B) are
// done here with geam, since cuBLAS may still read A and B then.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpuprim/core/error.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/detail/gemm/gemm.hpp"

namespace gpuprim::detail {
namespace {

constexpr const char* algorithm = "gemm";

void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw cuda_error(static_cast<int>(status), call, algorithm,
                     std::string("cuBLAS status ") + cublasGetStatusString(status));
  }
}

int current_device() {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", algorithm);
  return device;
}

// Handles are made once per thread and device and kept for the life of the
// thread (destroying them at exit could outlive the CUDA context).
cublasHandle_t blas_handle(stream_t stream) {
  thread_local std::map<int, cublasHandle_t> handles;
  cublasHandle_t& handle = handles[current_device()];
  if (handle == nullptr) {
    check_cublas(cublasCreate(&handle), "cublasCreate");
    check_cublas(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  }
  check_cublas(cublasSetStream(handle, reinterpret_cast<cudaStream_t>(stream)), "cublasSetStream");
  return handle;
}

struct lt_state {
  cublasLtHandle_t handle = nullptr;
  void* workspace = nullptr;
  static constexpr std::size_t workspace_bytes = std::size_t{32} << 20;
};

lt_state& lt_for_device() {
  thread_local std::map<int, lt_state> states;
  lt_state& s = states[current_device()];
  if (s.handle == nullptr) {
    check_cublas(cublasLtCreate(&s.handle), "cublasLtCreate");
    check(cudaMalloc(&s.workspace, lt_state::workspace_bytes), "cudaMalloc (cuBLASLt workspace)",
          algorithm);
  }
  return s;
}

int blas_int(std::size_t x) {
  return checked_blas_int(x, "cuBLAS's");
}

cublasOperation_t blas_op(matrix_op op) {
  return op == matrix_op::transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
}

// C = beta C (column-major view: n x m, ldc), not reading C when beta = 0.
void scale_c(cublasHandle_t handle, stream_t stream, gemm_kind kind, const gemm_problem& p,
             void* c) {
  if (p.beta == 0.0) {
    const std::size_t element = kind == gemm_kind::f64 ? 8 : 4;
    check(cudaMemset2DAsync(c, p.ldc * element, 0, p.n * element, p.m,
                            reinterpret_cast<cudaStream_t>(stream)),
          "cudaMemset2DAsync", algorithm);
    return;
  }
  if (p.beta == 1.0) return;
  const float zero_f = 0.0f;
  const double zero_d = 0.0;
  if (kind == gemm_kind::f64) {
    auto* x = static_cast<double*>(c);
    check_cublas(
        cublasDgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, blas_int(p.n), blas_int(p.m), &p.beta, x,
                    blas_int(p.ldc), &zero_d, x, blas_int(p.ldc), x, blas_int(p.ldc)),
        "cublasDgeam");
  } else {
    const float beta = static_cast<float>(p.beta);
    auto* x = static_cast<float*>(c);
    check_cublas(cublasSgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, blas_int(p.n), blas_int(p.m), &beta,
                             x, blas_int(p.ldc), &zero_f, x, blas_int(p.ldc), x, blas_int(p.ldc)),
                 "cublasSgeam");
  }
}

// fp32 / fp64 (and TF32 on request) through cublasGemmEx /
// cublasGemmStridedBatchedEx; also bfloat16 / half inputs when cuBLASLt has
// no algorithm for their layout (e.g. odd leading dimensions).
void gemm_ex(cublasHandle_t handle, gemm_kind kind, const gemm_problem& p) {
  const bool f64 = kind == gemm_kind::f64;
  const cudaDataType_t type = f64 ? CUDA_R_64F : CUDA_R_32F;
  const cudaDataType_t in = kind == gemm_kind::bf16  ? CUDA_R_16BF
                            : kind == gemm_kind::f16 ? CUDA_R_16F
                                                     : type;
  const cublasComputeType_t compute =
      f64 ? CUBLAS_COMPUTE_64F
          : (p.mode == precision::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F);
  const float alpha_f = static_cast<float>(p.alpha), beta_f = static_cast<float>(p.beta);
  const void* alpha = f64 ? static_cast<const void*>(&p.alpha) : &alpha_f;
  const void* beta = f64 ? static_cast<const void*>(&p.beta) : &beta_f;
  if (p.batch == 1) {
    check_cublas(
        cublasGemmEx(handle, blas_op(p.op_b), blas_op(p.op_a), blas_int(p.n), blas_int(p.m),
                     blas_int(p.k), alpha, p.b, in, blas_int(p.ldb), p.a, in, blas_int(p.lda), beta,
                     p.c, type, blas_int(p.ldc), compute, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
  } else {
    check_cublas(
        cublasGemmStridedBatchedEx(
            handle, blas_op(p.op_b), blas_op(p.op_a), blas_int(p.n), blas_int(p.m), blas_int(p.k),
            alpha, p.b, in, blas_int(p.ldb), static_cast<long long>(p.stride_b), p.a, in,
            blas_int(p.lda), static_cast<long long>(p.stride_a), beta, p.c, type, blas_int(p.ldc),
            static_cast<long long>(p.stride_c), blas_int(p.batch), compute, CUBLAS_GEMM_DEFAULT),
        "cublasGemmStridedBatchedEx");
  }
}

// A cuBLASLt object destroyed at scope exit.
template <class T, cublasStatus_t (*Destroy)(T)>
struct lt_object {
  T value = nullptr;
  ~lt_object() {
    if (value) Destroy(value);
  }
};

// bfloat16 / half inputs, fp32 accumulation and output, through
// cublasLtMatmul; false when cuBLASLt has no algorithm for the problem.
bool gemm_lt(stream_t stream, gemm_kind kind, const gemm_problem& p) {
  lt_state& lt = lt_for_device();
  const cudaDataType_t in = kind == gemm_kind::bf16 ? CUDA_R_16BF : CUDA_R_16F;
  lt_object<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy> op;
  check_cublas(cublasLtMatmulDescCreate(&op.value, CUBLAS_COMPUTE_32F, CUDA_R_32F),
               "cublasLtMatmulDescCreate");
  const cublasOperation_t op_first = blas_op(p.op_b), op_second = blas_op(p.op_a);
  check_cublas(cublasLtMatmulDescSetAttribute(op.value, CUBLASLT_MATMUL_DESC_TRANSA, &op_first,
                                              sizeof op_first),
               "cublasLtMatmulDescSetAttribute");
  check_cublas(cublasLtMatmulDescSetAttribute(op.value, CUBLASLT_MATMUL_DESC_TRANSB, &op_second,
                                              sizeof op_second),
               "cublasLtMatmulDescSetAttribute");
  // Column-major layouts of the stored matrices (B^T first, then A^T).
  const bool tb = p.op_b == matrix_op::transpose;
  const bool ta = p.op_a == matrix_op::transpose;
  const std::uint64_t first_rows = tb ? p.k : p.n, first_cols = tb ? p.n : p.k;
  const std::uint64_t second_rows = ta ? p.m : p.k, second_cols = ta ? p.k : p.m;
  lt_object<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy> la, lb, lc;
  check_cublas(cublasLtMatrixLayoutCreate(&la.value, in, first_rows, first_cols, p.ldb),
               "cublasLtMatrixLayoutCreate");
  check_cublas(cublasLtMatrixLayoutCreate(&lb.value, in, second_rows, second_cols, p.lda),
               "cublasLtMatrixLayoutCreate");
  check_cublas(cublasLtMatrixLayoutCreate(&lc.value, CUDA_R_32F, p.n, p.m, p.ldc),
               "cublasLtMatrixLayoutCreate");
  if (p.batch > 1) {
    const int count = blas_int(p.batch);
    const auto sa = static_cast<std::int64_t>(p.stride_b);
    const auto sb = static_cast<std::int64_t>(p.stride_a);
    const auto sc = static_cast<std::int64_t>(p.stride_c);
    const std::pair<cublasLtMatrixLayout_t, std::int64_t> layouts[] = {
        {la.value, sa}, {lb.value, sb}, {lc.value, sc}};
    for (const auto& [layout, stride] : layouts) {
      check_cublas(cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                                    &count, sizeof count),
                   "cublasLtMatrixLayoutSetAttribute");
      check_cublas(cublasLtMatrixLayoutSetAttribute(
                       layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride),
                   "cublasLtMatrixLayoutSetAttribute");
    }
  }
  lt_object<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy> preference;
  check_cublas(cublasLtMatmulPreferenceCreate(&preference.value), "cublasLtMatmulPreferenceCreate");
  const std::size_t workspace = lt_state::workspace_bytes;
  check_cublas(
      cublasLtMatmulPreferenceSetAttribute(
          preference.value, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace),
      "cublasLtMatmulPreferenceSetAttribute");
  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  const cublasStatus_t searched =
      cublasLtMatmulAlgoGetHeuristic(lt.handle, op.value, la.value, lb.value, lc.value, lc.value,
                                     preference.value, 1, &heuristic, &found);
  if (searched == CUBLAS_STATUS_NOT_SUPPORTED) return false;
  check_cublas(searched, "cublasLtMatmulAlgoGetHeuristic");
  if (found == 0) return false;
  const float alpha = static_cast<float>(p.alpha), beta = static_cast<float>(p.beta);
  check_cublas(cublasLtMatmul(lt.handle, op.value, &alpha, p.b, la.value, p.a, lb.value, &beta, p.c,
                              lc.value, p.c, lc.value, &heuristic.algo, lt.workspace, workspace,
                              reinterpret_cast<cudaStream_t>(stream)),
               "cublasLtMatmul");
  return true;
}

}  // namespace

void cuda_gemm(stream_t stream, gemm_kind kind, const gemm_problem& p) {
  if (p.m == 0 || p.n == 0 || p.batch == 0) return;
  if (p.k == 0 || p.alpha == 0.0) {
    cublasHandle_t handle = blas_handle(stream);
    const std::size_t element = kind == gemm_kind::f64 ? 8 : 4;
    for (std::size_t i = 0; i < p.batch; ++i)
      scale_c(handle, stream, kind, p, static_cast<char*>(p.c) + i * p.stride_c * element);
    return;
  }
  if (kind == gemm_kind::bf16 || kind == gemm_kind::f16) {
    if (gemm_lt(stream, kind, p)) return;
  }
  gemm_ex(blas_handle(stream), kind, p);
}

}  // namespace gpuprim::detail
