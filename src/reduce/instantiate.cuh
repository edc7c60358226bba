// The entry point each precompiled reduction instance names; the files
// CMake generates from GPUPRIM_REDUCE_TYPES (gpuprim/detail/reduce/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_reduce.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/reduce/entry.hpp"

namespace gpuprim::detail {

template <class In, class T, class Op, class Fetch>
constexpr auto entry_of(reduce_instance<In, T, Op, Fetch>) {
  return &cuda_reduce_into<In, T, Op, Fetch>;
}

}  // namespace gpuprim::detail
