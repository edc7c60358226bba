// The entry point each precompiled selection names; the files CMake
// generates from GPUPRIM_SELECT_TYPES (gpuprim/detail/select/precompiled.hpp)
// include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_select.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/select/entry.hpp"

namespace gpuprim::detail {

template <class S>
constexpr auto entry_of(select_instance<S>) {
  return &cuda_select_into<S>;
}

}  // namespace gpuprim::detail
