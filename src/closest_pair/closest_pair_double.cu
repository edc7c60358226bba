// Precompiled closest pair of double points.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_CLOSEST_PAIR(double)
