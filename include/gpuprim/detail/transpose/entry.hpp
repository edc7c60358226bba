// The transpose's entry points into its backends, side by side: both move
// elements as opaque words of Bytes bytes, for the checked shape (plan.hpp).
//
//   host (OpenMP, gpuprim/host/transpose.hpp)   CUDA (declared here)
//   host_impl::transpose_sized<Bytes>         cuda_transpose_sized<Bytes>
//   host_impl::transpose_bytes                cuda_transpose_bytes (by_size.hpp)
//
// The CUDA one is defined in gpuprim/cuda/device/device_transpose.cuh and
// compiled into the library for each element size of GPUPRIM_TRANSPOSE_SIZES
// (precompiled.hpp) by src/transpose/.
#pragma once

#include <cstddef>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/transpose/plan.hpp"

namespace gpuprim::detail {

// Enqueues the transposes `shape` describes on `stream`.
template <std::size_t Bytes>
void cuda_transpose_sized(const void* in, void* out, const transpose_shape& shape, stream_t stream);

}  // namespace gpuprim::detail
