// Include from a .cu file to run the segmented family on the GPU for any
// trivially copyable type, offset type and associative operator (the library
// precompiles only the common ones; see gpuprim/segmented.hpp).
#pragma once

#include "gpuprim/cuda/device/device_segmented_reduce.cuh"
#include "gpuprim/cuda/device/device_segmented_scan.cuh"
#include "gpuprim/segmented.hpp"
