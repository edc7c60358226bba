// The entry point each precompiled selection names; the files CMake
// generates from GPUPRIM_SELECT_TYPES (gpuprim/detail/select/precompiled.hpp)
// include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_select.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/select/entry.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(select_instance, cuda_select_into)

}  // namespace gpuprim::detail
