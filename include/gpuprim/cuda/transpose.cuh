// The device transpose's kernels, for a .cu file that wants them inlined
// (every element size is already precompiled; see gpuprim/transpose.hpp).
#pragma once

#include "gpuprim/cuda/device/device_transpose.cuh"
#include "gpuprim/transpose.hpp"
