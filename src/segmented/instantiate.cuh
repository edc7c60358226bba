// The entry point each precompiled segmented instance names; the files CMake
// generates from GPUPRIM_SEGMENTED_TYPES (gpuprim/detail/segmented/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "../scan/instantiate.cuh"
#include "gpuprim/cuda/device/device_segmented_reduce.cuh"
#include "gpuprim/cuda/device/device_segmented_scan.cuh"
#include "gpuprim/detail/segmented/segmented.hpp"

namespace gpuprim::detail {

template <class In, class T, class Offset, class Op>
constexpr auto entry_of(segmented_reduce_instance<In, T, Offset, Op>) {
  return &cuda_segmented_reduce_into<In, T, Offset, Op>;
}

template <class Offset>
constexpr auto entry_of(segment_heads_instance<Offset>) {
  return &cuda_mark_segment_heads<Offset>;
}

}  // namespace gpuprim::detail
