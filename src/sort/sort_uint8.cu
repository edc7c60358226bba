// The GPU radix sort of std::uint8_t keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(std::uint8_t)
