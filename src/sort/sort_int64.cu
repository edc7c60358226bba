// The GPU radix sort of std::int64_t keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(std::int64_t)
