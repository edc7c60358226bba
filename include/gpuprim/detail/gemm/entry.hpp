// The matrix multiply's entry points into its backends, side by side. Both
// are compiled into the library and take the checked problem (plan.hpp):
//
//   host: host_gemm, src/gemm/host_gemm.cpp   CUDA: cuda_gemm, src/gemm/cublas_gemm.cpp
//   (an optimized BLAS when the library was   (cuBLAS)
//   built with one, else an OpenMP loop)
#pragma once

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/gemm/plan.hpp"

namespace gpuprim::detail {

void host_gemm(host_backend backend, gemm_kind kind, const gemm_problem& problem);

// Enqueues `problem` on `stream`.
void cuda_gemm(stream_t stream, gemm_kind kind, const gemm_problem& problem);

}  // namespace gpuprim::detail
