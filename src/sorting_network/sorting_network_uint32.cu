// Precompiled sorting networks over uint32 keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SORTING_NETWORKS(std::uint32_t)
