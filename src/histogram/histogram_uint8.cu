// Precompiled histograms of uint8 samples.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_HISTOGRAMS(std::uint8_t)
