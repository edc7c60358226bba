// The GPU radix sort of std::uint16_t keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(std::uint16_t)
