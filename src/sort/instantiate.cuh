// The entry point each precompiled radix sort instance names; the files
// CMake generates from GPUPRIM_SORT_TYPES (gpuprim/detail/sort/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_radix_sort.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/sort/sort.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(radix_sort_instance, cuda_radix_sort)

}  // namespace gpuprim::detail
