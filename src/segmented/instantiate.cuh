// The entry point each precompiled segmented instance names; the files CMake
// generates from GPUPRIM_SEGMENTED_TYPES (gpuprim/detail/segmented/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "../scan/instantiate.cuh"
#include "gpuprim/cuda/device/device_segmented_reduce.cuh"
#include "gpuprim/cuda/device/device_segmented_scan.cuh"
#include "gpuprim/detail/segmented/segmented.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(segmented_reduce_instance, cuda_segmented_reduce_into)
GPUPRIM_ENTRY_OF(segment_heads_instance, cuda_mark_segment_heads)

}  // namespace gpuprim::detail
