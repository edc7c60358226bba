// Precompiled reductions over std::uint32_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_REDUCE_OPS(std::uint32_t)
GPUPRIM_INSTANTIATE_EXTREME_ELEMENT(std::uint32_t)
