// The GPU radix sort of std::uint64_t keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_RADIX_SORT(std::uint64_t)
