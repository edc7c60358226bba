// Explicit instantiations of the device SpMV for the library's value and
// index types (float, double x int32, int64), one .cu file per pair.
#pragma once

#include "gpuprim/cuda/device/device_spmv.cuh"
#include "gpuprim/sparse.hpp"

#define GPUPRIM_INSTANTIATE_SPMV(T, I)                                                     \
  template void gpuprim::detail::cuda_spmv<T, I>(T, const gpuprim::device_csr_view<T, I>&, \
                                                 const T*, T, T*, gpuprim::spmv_choice,    \
                                                 gpuprim::stream_t);
