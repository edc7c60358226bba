// Explicit instantiations of the device histogram for the library's
// precompiled combinations (kept in step with detail::precompiled_histogram
// in gpuprim/histogram.hpp; tests/cuda/histogram_test.cpp calls each from
// plain C++).
#pragma once

#include "gpuprim/cuda/device/device_histogram.cuh"
#include "gpuprim/histogram.hpp"

#define GPUPRIM_INSTANTIATE_HISTOGRAM(T, Counter, Binner)                                     \
  template void gpuprim::detail::cuda_histogram_into<T, Counter, gpuprim::detail::Binner<T>>( \
      const T*, std::size_t, Counter*, int, gpuprim::detail::Binner<T>, std::uint64_t*,       \
      gpuprim::stream_t);

#define GPUPRIM_INSTANTIATE_HISTOGRAMS(T)                       \
  GPUPRIM_INSTANTIATE_HISTOGRAM(T, std::uint32_t, even_binner)  \
  GPUPRIM_INSTANTIATE_HISTOGRAM(T, std::uint64_t, even_binner)  \
  GPUPRIM_INSTANTIATE_HISTOGRAM(T, std::uint32_t, range_binner) \
  GPUPRIM_INSTANTIATE_HISTOGRAM(T, std::uint64_t, range_binner) \
  GPUPRIM_INSTANTIATE_HISTOGRAM(T, std::uint32_t, numpy_binner) \
  GPUPRIM_INSTANTIATE_HISTOGRAM(T, std::uint64_t, numpy_binner)
