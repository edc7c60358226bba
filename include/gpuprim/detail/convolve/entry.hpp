// The convolution family's entry points into its backends, side by side.
//
//   host (OpenMP, gpuprim/host/convolve.hpp)   CUDA (declared here)
//   host_impl::convolve                      cuda_convolve
//   host_impl::nd_along_axis, nd_correlate   cuda_nd_filter
//
// The 2-D ones take the checked images and the plan (plan.hpp). The CUDA
// one is defined in gpuprim/cuda/device/device_convolve.cuh and compiled
// into the library for each type of GPUPRIM_CONVOLVE_TYPES
// (precompiled.hpp) by src/convolve/; it enqueues the plan on `stream`.
// The N-D ones (convolve_nd.hpp) take a checked nd_call (nd.hpp); the CUDA
// one is defined in gpuprim/cuda/device/device_convolve_nd.cuh and
// compiled for each input type of GPUPRIM_CONVOLVE_ND_TYPES (every output
// type in each).
#pragma once

#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/convolve/nd.hpp"
#include "gpuprim/detail/convolve/plan.hpp"

namespace gpuprim::detail {

template <class T>
void cuda_convolve(const convolve_images<T>& images, const convolve_plan& plan, stream_t stream);

// call.in has element type In.
template <class In>
void cuda_nd_filter(const nd_call& call, stream_t stream);

}  // namespace gpuprim::detail
