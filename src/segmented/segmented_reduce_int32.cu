// Precompiled segmented reductions over std::int32_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE_ALL(std::int32_t)
