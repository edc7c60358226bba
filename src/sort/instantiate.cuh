// Explicit instantiations of the GPU radix sort: every radix key type is
// compiled into the library (with 4- and 8-byte values as opaque words),
// one small .cu file per key type.
#pragma once

#include "gpuprim/cuda/device/device_radix_sort.cuh"
#include "gpuprim/sort.hpp"

#define GPUPRIM_INSTANTIATE_RADIX_SORT(K)                                                    \
  template void gpuprim::detail::cuda_radix_sort<K>(const K*, K*, const void*, void*,        \
                                                    const gpuprim::detail::radix_sort_plan&, \
                                                    gpuprim::stream_t);
