// Precompiled sorting networks over float keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SORTING_NETWORKS(float)
