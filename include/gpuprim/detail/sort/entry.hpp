// The sort family's entry points into its backends, side by side.
//
//   host (OpenMP, gpuprim/host/radix_sort.hpp)   CUDA (declared here)
//   host_impl::radix_sort<K, V>                cuda_radix_sort<K>
//   detail::host_argsort_batched (argsort.hpp)   cuda_argsort_batched<K>
//
// The CUDA ones are defined in gpuprim/cuda/device/device_radix_sort.cuh and
// device_argsort_batched.cuh and compiled into the library for every radix
// key type (GPUPRIM_SORT_TYPES, precompiled.hpp) by src/sort/.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/sort/plan.hpp"

namespace gpuprim::detail {

// Sorts keys_in -> keys_out (and values alongside, as opaque words of
// plan.value_bytes); in and out may be the same memory.
template <class K>
void cuda_radix_sort(const K* keys_in, K* keys_out, const void* values_in, void* values_out,
                     const radix_sort_plan& plan, stream_t stream);

// indices[rows * cols] and, unless null, keys_out[rows * cols]: each row of
// `in` sorted stably.
template <class K>
void cuda_argsort_batched(const K* in, K* keys_out, std::int64_t* indices, std::size_t rows,
                          std::size_t cols, sort_order order, stream_t stream);

}  // namespace gpuprim::detail
