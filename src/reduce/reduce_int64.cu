// Precompiled reductions over std::int64_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_REDUCE_OPS(std::int64_t)
GPUPRIM_INSTANTIATE_EXTREME_ELEMENT(std::int64_t)
GPUPRIM_INSTANTIATE_SIGNED_TRANSFORMS(std::int64_t)
