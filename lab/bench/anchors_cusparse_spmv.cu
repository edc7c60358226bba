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

// A library's handle (cuSPARSE, cuBLAS) on `stream`, made by create, set
// on the stream by set_stream (failures thrown by check) and destroyed with
// this object.
template <class Handle, auto create, auto set_stream, auto destroy, auto check>
struct library_handle {
  Handle h = nullptr;
  explicit library_handle(stream_t stream) {
    check(create(&h), "create a handle");
    check(set_stream(h, stream), "set the handle's stream");
  }
  ~library_handle() { destroy(h); }
  library_handle(const library_handle&) = delete;
  library_handle& operator=(const library_handle&) = delete;
};

using cusparse_handle = library_handle<cusparseHandle_t, cusparseCreate, cusparseSetStream,
                                       cusparseDestroy, check_cusparse>;
using cublas_handle =
    library_handle<cublasHandle_t, cublasCreate, cublasSetStream, cublasDestroy, check_cublas>;

// y = A x through cusparseSpMV for a float CSR matrix with int32 offsets
// and indices (rows x cols, nnz entries) and dense float vectors x (cols)
// and y (rows), all in device memory: the descriptors and the work buffer,
// made once, destroyed with this object.
struct csr_spmv {
  cusparseSpMatDescr_t A = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  void* buffer = nullptr;

  csr_spmv(cusparseHandle_t handle, std::size_t rows, std::size_t cols, std::size_t nnz,
           const std::int32_t* offsets, const std::int32_t* col_indices, const float* values,
           const float* x_data, float* y_data) {
    SPARSE_CHECK(cusparseCreateCsr(&A, static_cast<int64_t>(rows), static_cast<int64_t>(cols),
                                   static_cast<int64_t>(nnz), const_cast<std::int32_t*>(offsets),
                                   const_cast<std::int32_t*>(col_indices),
                                   const_cast<float*>(values), CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    SPARSE_CHECK(cusparseCreateDnVec(&x, static_cast<int64_t>(cols), const_cast<float*>(x_data),
                                     CUDA_R_32F));
    SPARSE_CHECK(cusparseCreateDnVec(&y, static_cast<int64_t>(rows), y_data, CUDA_R_32F));
    const float one = 1.0f, zero = 0.0f;
    std::size_t bytes = 0;
    SPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, x,
                                         &zero, y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    RT_CHECK(cudaMalloc(&buffer, bytes ? bytes : 1));
  }
  ~csr_spmv() {
    cudaFree(buffer);
    cusparseDestroyDnVec(x);
    cusparseDestroyDnVec(y);
    cusparseDestroySpMat(A);
  }
  csr_spmv(const csr_spmv&) = delete;
  csr_spmv& operator=(const csr_spmv&) = delete;

  // Enqueues y = A x on the handle's stream.
  void enqueue(cusparseHandle_t handle) const {
    const float one = 1.0f, zero = 0.0f;
    SPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, x, &zero, y,
                              CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  }
};

}  // namespace

struct cusparse_spmv::state {
  cusparse_handle handle;
  csr_spmv product;

  state(std::size_t rows, std::size_t cols, std::size_t nnz, const std::int32_t* offsets,
        const std::int32_t* col_indices, const float* values, const float* x, float* y,
        stream_t stream)
      : handle(stream), product(handle.h, rows, cols, nnz, offsets, col_indices, values, x, y) {}
};

cusparse_spmv::cusparse_spmv(std::size_t rows, std::size_t cols, std::size_t nnz,
                             const std::int32_t* offsets, const std::int32_t* col_indices,
                             const float* values, const float* x, float* y, stream_t stream)
    : s_(new state(rows, cols, nnz, offsets, col_indices, values, x, y, stream)) {}

cusparse_spmv::~cusparse_spmv() {
  delete s_;
}

void cusparse_spmv::enqueue() const {
  s_->product.enqueue(s_->handle.h);
}

// The CG vectors, then the handles and p's product with A into q.
struct cusparse_cublas_cg::state {
  std::size_t n = 0;
  stream_t stream = nullptr;
  device_vector<float> r, p, q;
  cusparse_handle sparse;
  cublas_handle blas;
  csr_spmv product;  // q = A p

  state(std::size_t n, std::size_t nnz, const std::int32_t* offsets,
        const std::int32_t* col_indices, const float* values, stream_t stream)
      : n(n),
        stream(stream),
        r(n),
        p(n),
        q(n),
        sparse(stream),
        blas(stream),
        product(sparse.h, n, n, nnz, offsets, col_indices, values, p.data(), q.data()) {}
};

cusparse_cublas_cg::cusparse_cublas_cg(std::size_t n, std::size_t nnz, const std::int32_t* offsets,
                                       const std::int32_t* col_indices, const float* values,
                                       stream_t stream)
    : s_(new state(n, nnz, offsets, col_indices, values, stream)) {}

cusparse_cublas_cg::~cusparse_cublas_cg() {
  delete s_;
}

double cusparse_cublas_cg::run(const float* b, float* x, int iterations) const {
  const int n = static_cast<int>(s_->n);
  float* r = s_->r.data();
  float* p = s_->p.data();
  float* q = s_->q.data();
  const float one = 1.0f;
  // x = 0, r = b, p = r.
  RT_CHECK(cudaMemsetAsync(x, 0, s_->n * sizeof(float), s_->stream));
  RT_CHECK(cudaMemcpyAsync(r, b, s_->n * sizeof(float), cudaMemcpyDeviceToDevice, s_->stream));
  RT_CHECK(cudaMemcpyAsync(p, b, s_->n * sizeof(float), cudaMemcpyDeviceToDevice, s_->stream));
  float rr = 0;
  BLAS_CHECK(cublasSdot(s_->blas.h, n, r, 1, r, 1, &rr));
  for (int k = 0; k < iterations; ++k) {
    s_->product.enqueue(s_->sparse.h);
    float pq = 0;
    BLAS_CHECK(cublasSdot(s_->blas.h, n, p, 1, q, 1, &pq));
    const float alpha = rr / pq, minus_alpha = -alpha;
    BLAS_CHECK(cublasSaxpy(s_->blas.h, n, &alpha, p, 1, x, 1));
    BLAS_CHECK(cublasSaxpy(s_->blas.h, n, &minus_alpha, q, 1, r, 1));
    float rr_new = 0;
    BLAS_CHECK(cublasSdot(s_->blas.h, n, r, 1, r, 1, &rr_new));
    const float beta = rr_new / rr;
    rr = rr_new;
    BLAS_CHECK(cublasSscal(s_->blas.h, n, &beta, p, 1));
    BLAS_CHECK(cublasSaxpy(s_->blas.h, n, &one, r, 1, p, 1));
  }
  RT_CHECK(cudaStreamSynchronize(s_->stream));
  return rr;
}

}  // namespace gpuprim::bench
