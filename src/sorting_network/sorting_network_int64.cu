// Precompiled sorting networks over int64 keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SORTING_NETWORKS(std::int64_t)
