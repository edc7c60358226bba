// Precompiled closest pair of float points.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_CLOSEST_PAIR(float)
