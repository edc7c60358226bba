// Precompiled sorting networks over int32 keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SORTING_NETWORKS(std::int32_t)
