// The entry point each precompiled solver instance names; the files CMake
// generates from GPUPRIM_SOLVE_TYPES (gpuprim/detail/solve/precompiled.hpp)
// include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_solve.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/solve/solve.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(solve_instance, cuda_solve)

}  // namespace gpuprim::detail
