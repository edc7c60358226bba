// The entry point each precompiled transpose instance names; the files CMake
// generates from GPUPRIM_TRANSPOSE_SIZES (gpuprim/detail/transpose/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_transpose.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/transpose/transpose.hpp"

namespace gpuprim::detail {

template <std::size_t Bytes>
constexpr auto entry_of(transpose_instance<std::integral_constant<std::size_t, Bytes>>) {
  return &cuda_transpose_sized<Bytes>;
}

}  // namespace gpuprim::detail
