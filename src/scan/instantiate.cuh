// The entry point each precompiled scan instance names; the files CMake
// generates from GPUPRIM_SCAN_TYPES (gpuprim/detail/scan/precompiled.hpp)
// include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_scan.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/scan/scan.hpp"

namespace gpuprim::detail {

template <class In, class Out, class T, class Op, class Fetch>
constexpr auto entry_of(scan_instance<In, Out, T, Op, Fetch>) {
  return &cuda_scan_into<In, Out, T, Op, Fetch>;
}

}  // namespace gpuprim::detail
