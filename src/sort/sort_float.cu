// The GPU radix sort of float keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(float)
