// Precompiled sorting networks over double keys.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SORTING_NETWORKS(double)
