// cuSPARSE and cuBLAS anchors of the sparse family (see anchors_sparse.hpp).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <stdexcept>
#include <string>

#include "anchors_sparse.hpp"
#include "gpuprim/core/device_vector.hpp"

namespace gpuprim::bench {
namespace {

void check_cusparse(cusparseStatus_t s, const char* call) {
  if (s != CUSPARSE_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + ": " + cusparseGetErrorString(s));
  }
}
void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + ": cuBLAS status " + std::to_string(int(s)));
  }
}
void check_cuda(cudaError_t e, const char* call) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(e));
}

#define SPARSE_CHECK(call) check_cusparse((call), #call)
#define BLAS_CHECK(call) check_cublas((call), #call)
#define RT_CHECK(call) check_cuda((call), #call)

}  // namespace

struct cusparse_spmv::state {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t A = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  void* buffer = nullptr;
  float alpha = 1.0f, beta = 0.0f;
};

cusparse_spmv::cusparse_spmv(std::size_t rows, std::size_t cols, std::size_t nnz,
                             const std::int32_t* offsets, const std::int32_t* col_indices,
                             const float* values, const float* x, float* y, stream_t stream)
    : s_(new state) {
  SPARSE_CHECK(cusparseCreate(&s_->handle));
  SPARSE_CHECK(cusparseSetStream(s_->handle, stream));
  SPARSE_CHECK(cusparseCreateCsr(&s_->A, static_cast<int64_t>(rows), static_cast<int64_t>(cols),
                                 static_cast<int64_t>(nnz), const_cast<std::int32_t*>(offsets),
                                 const_cast<std::int32_t*>(col_indices), const_cast<float*>(values),
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                 CUDA_R_32F));
  SPARSE_CHECK(
      cusparseCreateDnVec(&s_->x, static_cast<int64_t>(cols), const_cast<float*>(x), CUDA_R_32F));
  SPARSE_CHECK(cusparseCreateDnVec(&s_->y, static_cast<int64_t>(rows), y, CUDA_R_32F));
  std::size_t bytes = 0;
  SPARSE_CHECK(cusparseSpMV_bufferSize(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s_->alpha,
                                       s_->A, s_->x, &s_->beta, s_->y, CUDA_R_32F,
                                       CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  RT_CHECK(cudaMalloc(&s_->buffer, bytes ? bytes : 1));
}

cusparse_spmv::~cusparse_spmv() {
  cudaFree(s_->buffer);
  cusparseDestroyDnVec(s_->x);
  cusparseDestroyDnVec(s_->y);
  cusparseDestroySpMat(s_->A);
  cusparseDestroy(s_->handle);
  delete s_;
}

void cusparse_spmv::enqueue() const {
  SPARSE_CHECK(cusparseSpMV(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s_->alpha, s_->A, s_->x,
                            &s_->beta, s_->y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, s_->buffer));
}

struct cusparse_cublas_cg::state {
  std::size_t n = 0;
  stream_t stream = nullptr;
  cusparseHandle_t sparse = nullptr;
  cublasHandle_t blas = nullptr;
  cusparseSpMatDescr_t A = nullptr;
  cusparseDnVecDescr_t p_vec = nullptr, q_vec = nullptr;
  device_vector<float> r, p, q;
  void* buffer = nullptr;
};

cusparse_cublas_cg::cusparse_cublas_cg(std::size_t n, std::size_t nnz, const std::int32_t* offsets,
                                       const std::int32_t* col_indices, const float* values,
                                       stream_t stream)
    : s_(new state) {
  s_->n = n;
  s_->stream = stream;
  s_->r = device_vector<float>(n);
  s_->p = device_vector<float>(n);
  s_->q = device_vector<float>(n);
  SPARSE_CHECK(cusparseCreate(&s_->sparse));
  SPARSE_CHECK(cusparseSetStream(s_->sparse, stream));
  BLAS_CHECK(cublasCreate(&s_->blas));
  BLAS_CHECK(cublasSetStream(s_->blas, stream));
  SPARSE_CHECK(cusparseCreateCsr(&s_->A, static_cast<int64_t>(n), static_cast<int64_t>(n),
                                 static_cast<int64_t>(nnz), const_cast<std::int32_t*>(offsets),
                                 const_cast<std::int32_t*>(col_indices), const_cast<float*>(values),
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                 CUDA_R_32F));
  SPARSE_CHECK(cusparseCreateDnVec(&s_->p_vec, static_cast<int64_t>(n), s_->p.data(), CUDA_R_32F));
  SPARSE_CHECK(cusparseCreateDnVec(&s_->q_vec, static_cast<int64_t>(n), s_->q.data(), CUDA_R_32F));
  const float one = 1.0f, zero = 0.0f;
  std::size_t bytes = 0;
  SPARSE_CHECK(cusparseSpMV_bufferSize(s_->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s_->A,
                                       s_->p_vec, &zero, s_->q_vec, CUDA_R_32F,
                                       CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  RT_CHECK(cudaMalloc(&s_->buffer, bytes ? bytes : 1));
}

cusparse_cublas_cg::~cusparse_cublas_cg() {
  cudaFree(s_->buffer);
  cusparseDestroyDnVec(s_->p_vec);
  cusparseDestroyDnVec(s_->q_vec);
  cusparseDestroySpMat(s_->A);
  cublasDestroy(s_->blas);
  cusparseDestroy(s_->sparse);
  delete s_;
}

double cusparse_cublas_cg::run(const float* b, float* x, int iterations) const {
  const int n = static_cast<int>(s_->n);
  float* r = s_->r.data();
  float* p = s_->p.data();
  float* q = s_->q.data();
  const float one = 1.0f, zero = 0.0f;
  // x = 0, r = b, p = r.
  RT_CHECK(cudaMemsetAsync(x, 0, s_->n * sizeof(float), s_->stream));
  RT_CHECK(cudaMemcpyAsync(r, b, s_->n * sizeof(float), cudaMemcpyDeviceToDevice, s_->stream));
  RT_CHECK(cudaMemcpyAsync(p, b, s_->n * sizeof(float), cudaMemcpyDeviceToDevice, s_->stream));
  float rr = 0;
  BLAS_CHECK(cublasSdot(s_->blas, n, r, 1, r, 1, &rr));
  for (int k = 0; k < iterations; ++k) {
    SPARSE_CHECK(cusparseSpMV(s_->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s_->A, s_->p_vec,
                              &zero, s_->q_vec, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, s_->buffer));
    float pq = 0;
    BLAS_CHECK(cublasSdot(s_->blas, n, p, 1, q, 1, &pq));
    const float alpha = rr / pq, minus_alpha = -alpha;
    BLAS_CHECK(cublasSaxpy(s_->blas, n, &alpha, p, 1, x, 1));
    BLAS_CHECK(cublasSaxpy(s_->blas, n, &minus_alpha, q, 1, r, 1));
    float rr_new = 0;
    BLAS_CHECK(cublasSdot(s_->blas, n, r, 1, r, 1, &rr_new));
    const float beta = rr_new / rr;
    rr = rr_new;
    BLAS_CHECK(cublasSscal(s_->blas, n, &beta, p, 1));
    BLAS_CHECK(cublasSaxpy(s_->blas, n, &one, r, 1, p, 1));
  }
  RT_CHECK(cudaStreamSynchronize(s_->stream));
  return rr;
}

}  // namespace gpuprim::bench
