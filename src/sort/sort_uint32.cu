// The GPU radix sort of std::uint32_t keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(std::uint32_t)
