// The GPU radix sort of std::int32_t keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(std::int32_t)
