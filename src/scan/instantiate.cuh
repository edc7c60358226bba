// Explicit instantiations of the device scan for the library's precompiled
// combinations (kept in step with detail::precompiled_scan in
// gpuprim/scan.hpp; tests/cuda/scan_test.cpp calls each from plain C++).
#pragma once

#include "gpuprim/cuda/device/device_scan.cuh"
#include "gpuprim/scan.hpp"

#define GPUPRIM_INSTANTIATE_SCAN(T, Op)                                                          \
  template void                                                                                  \
  gpuprim::detail::cuda_scan_into<T, T, T, Op, gpuprim::detail::unary_fetch<gpuprim::identity>>( \
      const T*, T*, std::size_t, gpuprim::scan_kind, T, Op,                                      \
      gpuprim::detail::unary_fetch<gpuprim::identity>, gpuprim::stream_t);

#define GPUPRIM_INSTANTIATE_SCAN_OPS(T)         \
  GPUPRIM_INSTANTIATE_SCAN(T, gpuprim::plus)    \
  GPUPRIM_INSTANTIATE_SCAN(T, gpuprim::minimum) \
  GPUPRIM_INSTANTIATE_SCAN(T, gpuprim::maximum)

// The NaN-skipping minima / maxima, for float and double only.
#define GPUPRIM_INSTANTIATE_SCAN_NAN_SKIPPING_OPS(T)   \
  GPUPRIM_INSTANTIATE_SCAN(T, gpuprim::minimum_number) \
  GPUPRIM_INSTANTIATE_SCAN(T, gpuprim::maximum_number)
