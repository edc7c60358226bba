// Include from a .cu file to search on the GPU with any element, query and
// index types and any __device__ comparator (the library precompiles the
// arithmetic types with gp::less and gp::nan_last_less; see
// gpuprim/search.hpp).
#pragma once

#include "gpuprim/cuda/device/device_search.cuh"
#include "gpuprim/search.hpp"
