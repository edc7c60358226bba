// Include from a .cu file to merge and merge-sort on the GPU with any
// element types (trivially copyable, up to 64 bytes) and any __device__
// comparator (the library precompiles the arithmetic types with gp::less
// and gp::greater; see gpuprim/merge.hpp).
#pragma once

#include "gpuprim/cuda/device/device_merge.cuh"
#include "gpuprim/merge.hpp"
