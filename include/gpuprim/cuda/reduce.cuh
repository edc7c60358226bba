// Include from a .cu file to reduce any trivially copyable type with any
// associative operator on the GPU (the library precompiles only the common
// ones; see gpuprim/reduce.hpp).
#pragma once

#include "gpuprim/cuda/device/device_reduce.cuh"
#include "gpuprim/reduce.hpp"
