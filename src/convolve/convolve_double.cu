// Precompiled convolutions of double images.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_CONVOLVE(double)
