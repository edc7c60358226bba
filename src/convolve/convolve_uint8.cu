// Precompiled convolutions of uint8 images.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_CONVOLVE(std::uint8_t)
