// Include from a .cu file to run the selections on the GPU over any
// trivially copyable element type of 1 to 16 bytes with any __device__
// predicate, equality or operator (the library precompiles only the common
// ones; see gpuprim/select.hpp).
#pragma once

#include "gpuprim/cuda/device/device_select.cuh"
#include "gpuprim/select.hpp"
