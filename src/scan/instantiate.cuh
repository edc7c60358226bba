// The entry point each precompiled scan instance names; the files CMake
// generates from GPUPRIM_SCAN_TYPES (gpuprim/detail/scan/precompiled.hpp)
// include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_scan.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/scan/scan.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(scan_instance, cuda_scan_into)

}  // namespace gpuprim::detail
