// Precompiled histograms of float samples.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_HISTOGRAMS(float)
