// Precompiled reductions over std::uint64_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_REDUCE_OPS(std::uint64_t)
GPUPRIM_INSTANTIATE_EXTREME_ELEMENT(std::uint64_t)
