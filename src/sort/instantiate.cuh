// The entry point each precompiled radix sort instance names; the files
// CMake generates from GPUPRIM_SORT_TYPES (gpuprim/detail/sort/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_radix_sort.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/sort/sort.hpp"

namespace gpuprim::detail {

template <class K>
constexpr auto entry_of(radix_sort_instance<K>) {
  return &cuda_radix_sort<K>;
}

}  // namespace gpuprim::detail
