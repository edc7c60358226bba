// Precompiled histograms of uint32 samples.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_HISTOGRAMS(std::uint32_t)
