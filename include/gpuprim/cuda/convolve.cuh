// Include from a .cu file to instantiate the GPU convolution for image types
// the library does not precompile (it precompiles float, double and
// std::uint8_t); see gpuprim/convolve.hpp.
#pragma once

#include "gpuprim/convolve.hpp"
#include "gpuprim/cuda/device/device_convolve.cuh"
