// The entry point each precompiled solver instance names; the files CMake
// generates from GPUPRIM_SOLVE_TYPES (gpuprim/detail/solve/precompiled.hpp)
// include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_solve.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/solve/solve.hpp"

namespace gpuprim::detail {

template <class T, class Op>
constexpr auto entry_of(solve_instance<T, Op>) {
  return &cuda_solve<T, Op>;
}

}  // namespace gpuprim::detail
