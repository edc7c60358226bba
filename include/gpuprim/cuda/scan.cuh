// Include from a .cu file to scan any trivially copyable type with any
// associative operator on the GPU (the library precompiles only the common
// ones; see gpuprim/scan.hpp).
#pragma once

#include "gpuprim/cuda/device/device_scan.cuh"
#include "gpuprim/scan.hpp"
