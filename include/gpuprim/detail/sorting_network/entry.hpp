// The sorting networks' entry points into their backends, side by side.
//
//   host (OpenMP, gpuprim/host/sorting_network.hpp)   CUDA (declared here)
//   host_impl::bitonic_sort                         cuda_bitonic_sort
//   host_impl::odd_even_merge_sort                  cuda_odd_even_merge_sort
//   host_impl::sort_batched                         cuda_sort_batched
//   host_impl::segmented_sort                       cuda_segmented_sort
//
// The CUDA ones are defined in gpuprim/cuda/device/device_sorting_network.cuh
// and compiled into the library for GPUPRIM_SORTING_NETWORK_TYPES
// (precompiled.hpp) by src/sorting_network/. Each enqueues an in-place sort
// of data[0, n) on `stream`; arguments are already checked.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::detail {

template <class T, class Comp>
void cuda_bitonic_sort(T* data, std::size_t n, Comp comp, stream_t stream);
template <class T, class Comp>
void cuda_odd_even_merge_sort(T* data, std::size_t n, Comp comp, stream_t stream);
template <class T, class Comp>
void cuda_sort_batched(T* data, std::size_t n, std::size_t array_size, Comp comp, stream_t stream);
// `offsets` are in host memory and partition [0, n).
template <class T, class Comp>
void cuda_segmented_sort(T* data, std::size_t n, const std::uint64_t* offsets,
                         std::size_t num_offsets, Comp comp, stream_t stream);

}  // namespace gpuprim::detail
