// Include from a .cu file to build histograms with your own classifier (or
// sample types the library does not precompile) on the GPU; see
// gpuprim/histogram.hpp.
#pragma once

#include "gpuprim/cuda/device/device_histogram.cuh"
#include "gpuprim/histogram.hpp"
