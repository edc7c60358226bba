// Precompiled reductions over std.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_REDUCE_OPS(std)
GPUPRIM_INSTANTIATE_EXTREME_ELEMENT(std)
