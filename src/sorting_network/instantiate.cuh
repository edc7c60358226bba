// Explicit instantiations of the GPU sorting networks for the library's
// precompiled key types (kept in step with detail::precompiled_sorting_network
// in gpuprim/sorting_network.hpp; tests/cuda/sorting_network_test.cpp calls
// each from plain C++).
#pragma once

#include "gpuprim/cuda/device/device_sorting_network.cuh"
#include "gpuprim/sorting_network.hpp"

#define GPUPRIM_INSTANTIATE_SORTING_NETWORK(T, Comp)                                            \
  template void gpuprim::detail::cuda_bitonic_sort<T, Comp>(T*, std::size_t, Comp,              \
                                                            gpuprim::stream_t);                 \
  template void gpuprim::detail::cuda_odd_even_merge_sort<T, Comp>(T*, std::size_t, Comp,       \
                                                                   gpuprim::stream_t);          \
  template void gpuprim::detail::cuda_sort_batched<T, Comp>(T*, std::size_t, std::size_t, Comp, \
                                                            gpuprim::stream_t);                 \
  template void gpuprim::detail::cuda_segmented_sort<T, Comp>(                                  \
      T*, std::size_t, const std::uint64_t*, std::size_t, Comp, gpuprim::stream_t);

#define GPUPRIM_INSTANTIATE_SORTING_NETWORKS(T)              \
  GPUPRIM_INSTANTIATE_SORTING_NETWORK(T, gpuprim::sort_less) \
  GPUPRIM_INSTANTIATE_SORTING_NETWORK(T, gpuprim::sort_greater)
