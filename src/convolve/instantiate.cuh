// The entry point each precompiled convolution instance names; the files
// CMake generates from GPUPRIM_CONVOLVE_TYPES (gpuprim/detail/convolve/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_convolve.cuh"
#include "gpuprim/detail/convolve/convolve.hpp"
#include "gpuprim/detail/instantiate.hpp"

namespace gpuprim::detail {

template <class T>
constexpr auto entry_of(convolve_instance<T>) {
  return &cuda_convolve<T>;
}

}  // namespace gpuprim::detail
