// Vendor anchors of the sparse family (anchors_cusparse_spmv.cu):
// cusparseSpMV on a CSR matrix, and conjugate gradients composed of
// cusparseSpMV and cuBLAS dot / axpy / scal calls, the way a CUDA user
// writes it (the structure of the CUDA samples' conjugateGradient).
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::bench {

#if GPUPRIM_HAS_CUDA
// y = A x with cusparseSpMV (CUSPARSE_SPMV_ALG_DEFAULT), float values and
// int32 indices in device memory. The handle, descriptors and the work
// buffer are made once, here, outside any timed region.
class cusparse_spmv {
 public:
  cusparse_spmv(std::size_t rows, std::size_t cols, std::size_t nnz, const std::int32_t* offsets,
                const std::int32_t* col_indices, const float* values, const float* x, float* y,
                stream_t stream);
  ~cusparse_spmv();
  cusparse_spmv(const cusparse_spmv&) = delete;
  cusparse_spmv& operator=(const cusparse_spmv&) = delete;

  void enqueue() const;  // y = A x
  static const char* name() { return "cusparseSpMV (CSR, ALG_DEFAULT)"; }

 private:
  struct state;
  state* s_;
};

// `iterations` iterations of unpreconditioned CG on A (float, int32 CSR)
// from x = 0: per iteration cusparseSpMV, cublasSdot (p.Ap), two
// cublasSaxpy, cublasSdot (r.r), cublasSscal and cublasSaxpy (p = r + beta
// p); the dots return to the host (CUBLAS_POINTER_MODE_HOST), as in the
// CUDA samples. Returns ||r||^2 at the end. Synchronizes.
class cusparse_cublas_cg {
 public:
  cusparse_cublas_cg(std::size_t n, std::size_t nnz, const std::int32_t* offsets,
                     const std::int32_t* col_indices, const float* values, stream_t stream);
  ~cusparse_cublas_cg();
  cusparse_cublas_cg(const cusparse_cublas_cg&) = delete;
  cusparse_cublas_cg& operator=(const cusparse_cublas_cg&) = delete;

  double run(const float* b, float* x, int iterations) const;
  static const char* name() { return "cuSPARSE SpMV + cuBLAS dot/axpy/scal CG"; }

 private:
  struct state;
  state* s_;
};
#endif

}  // namespace gpuprim::bench
