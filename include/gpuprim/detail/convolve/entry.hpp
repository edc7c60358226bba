// The convolution family's entry points into its backends, side by side.
//
//   host (OpenMP, gpuprim/host/convolve.hpp)   CUDA (declared here)
//   host_impl::convolve                      cuda_convolve
//
// Both take the checked images and the plan (plan.hpp). The CUDA one is
// defined in gpuprim/cuda/device/device_convolve.cuh and compiled into the
// library for each type of GPUPRIM_CONVOLVE_TYPES (precompiled.hpp) by
// src/convolve/; it enqueues the plan on `stream`.
#pragma once

#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/convolve/plan.hpp"

namespace gpuprim::detail {

template <class T>
void cuda_convolve(const convolve_images<T>& images, const convolve_plan& plan, stream_t stream);

}  // namespace gpuprim::detail
