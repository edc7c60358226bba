// Precompiled segmented reductions over std::uint64_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE_ALL(std::uint64_t)
