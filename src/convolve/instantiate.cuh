// The entry point each precompiled convolution instance names; the files
// CMake generates from GPUPRIM_CONVOLVE_TYPES (gpuprim/detail/convolve/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_convolve.cuh"
#include "gpuprim/detail/convolve/convolve.hpp"
#include "gpuprim/detail/instantiate.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(convolve_instance, cuda_convolve)

}  // namespace gpuprim::detail
