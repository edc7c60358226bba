// Precompiled histograms of double samples.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_HISTOGRAMS(double)
