// Precompiled sorting networks over uint64 keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SORTING_NETWORKS(std::uint64_t)
