// Precompiled reductions over std::int32_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_REDUCE_OPS(std::int32_t)
GPUPRIM_INSTANTIATE_EXTREME_ELEMENT(std::int32_t)
GPUPRIM_INSTANTIATE_SIGNED_TRANSFORMS(std::int32_t)
