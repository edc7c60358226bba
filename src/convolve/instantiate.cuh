// The entry point each precompiled convolution instance names (2-D
// convolve_instance, N-D convolve_nd_instance); the files
// CMake generates from GPUPRIM_CONVOLVE_TYPES (gpuprim/detail/convolve/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_convolve.cuh"
#include "gpuprim/cuda/device/device_convolve_nd.cuh"
#include "gpuprim/detail/convolve/convolve.hpp"
#include "gpuprim/detail/instantiate.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(convolve_instance, cuda_convolve)

template <class In>
constexpr auto entry_of(convolve_nd_instance<In>) {
  return &cuda_nd_filter<In>;
}

}  // namespace gpuprim::detail
