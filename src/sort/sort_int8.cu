// The GPU radix sort of std::int8_t keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(std::int8_t)
