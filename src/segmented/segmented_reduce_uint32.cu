// Precompiled segmented reductions over std::uint32_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE_ALL(std::uint32_t)
