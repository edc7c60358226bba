// The GPU radix sort of std::int16_t keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(std::int16_t)
