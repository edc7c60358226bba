// Precompiled segmented reductions over std::int64_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE_ALL(std::int64_t)
