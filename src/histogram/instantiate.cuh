// The entry point each precompiled histogram instance names; the files CMake
// generates from GPUPRIM_HISTOGRAM_TYPES (gpuprim/detail/histogram/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_histogram.cuh"
#include "gpuprim/detail/histogram/histogram.hpp"
#include "gpuprim/detail/instantiate.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(histogram_instance, cuda_histogram_into)

}  // namespace gpuprim::detail
