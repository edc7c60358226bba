// The GPU radix sort of double keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(double)
