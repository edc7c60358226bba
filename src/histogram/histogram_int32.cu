// Precompiled histograms of int32 samples.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_HISTOGRAMS(std::int32_t)
