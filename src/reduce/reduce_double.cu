// Precompiled reductions over double.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_REDUCE_OPS(double)
GPUPRIM_INSTANTIATE_EXTREME_ELEMENT(double)
GPUPRIM_INSTANTIATE_SIGNED_TRANSFORMS(double)
