// Precompiled convolutions of float images.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_CONVOLVE(float)
