// Explicit instantiations of the GPU solvers (all four methods) for CSR
// matrices of float / double with int32 / int64 indices, and dense
// matrices; one .cu file per matrix type.
#pragma once

#include "gpuprim/cuda/device/device_solve.cuh"
#include "gpuprim/solve.hpp"

#define GPUPRIM_INSTANTIATE_SOLVE(T, Op)                                                          \
  template gpuprim::solve_result gpuprim::detail::cuda_solve<T, Op>(                              \
      gpuprim::solve_method, const Op&, const T*, T*, std::size_t, const gpuprim::solve_options&, \
      std::size_t, gpuprim::stream_t);

#define GPUPRIM_CSR(T, I) gpuprim::device_csr_view<T, I>
#define GPUPRIM_DENSE(T) gpuprim::device_matrix_view<const T>
