// Explicit instantiations of the segmented scans for the library's
// precompiled combinations (detail::precompiled_segmented_scan in
// gpuprim/segmented.hpp; tests/cuda/segmented_scan_test.cpp calls each one
// from plain C++, so a missing one is a link error).
#pragma once

#include "gpuprim/cuda/device/device_segmented_scan.cuh"
#include "gpuprim/segmented.hpp"

#define GPUPRIM_INSTANTIATE_SEGMENTED_SCAN(T)                                                      \
  template void                                                                                    \
  gpuprim::detail::cuda_scan_into<T, T, gpuprim::flagged<T>, gpuprim::segmented<gpuprim::plus>,    \
                                  gpuprim::detail::head_flag_fetch<T, std::uint8_t>>(              \
      const T*, T*, std::size_t, gpuprim::scan_kind, gpuprim::flagged<T>,                          \
      gpuprim::segmented<gpuprim::plus>, gpuprim::detail::head_flag_fetch<T, std::uint8_t>,        \
      gpuprim::stream_t);                                                                          \
  template void                                                                                    \
  gpuprim::detail::cuda_scan_into<T, T, gpuprim::flagged<T>, gpuprim::segmented<gpuprim::plus>,    \
                                  gpuprim::detail::exclusive_head_flag_fetch<T, T, std::uint8_t>>( \
      const T*, T*, std::size_t, gpuprim::scan_kind, gpuprim::flagged<T>,                          \
      gpuprim::segmented<gpuprim::plus>,                                                           \
      gpuprim::detail::exclusive_head_flag_fetch<T, T, std::uint8_t>, gpuprim::stream_t);
