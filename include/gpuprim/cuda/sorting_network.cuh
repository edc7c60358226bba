// Include from a .cu file to sort any trivially copyable type with any
// comparator by the sorting networks on the GPU (the library precompiles
// only the common key types with gp::sort_less / gp::sort_greater; see
// gpuprim/sort.hpp).
#pragma once

#include "gpuprim/cuda/device/device_sorting_network.cuh"
#include "gpuprim/sort.hpp"
