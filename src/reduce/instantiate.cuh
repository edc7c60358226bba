// The entry point each precompiled reduction instance names; the files
// CMake generates from GPUPRIM_REDUCE_TYPES (gpuprim/detail/reduce/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_reduce.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/reduce/entry.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(reduce_instance, cuda_reduce_into)

}  // namespace gpuprim::detail
