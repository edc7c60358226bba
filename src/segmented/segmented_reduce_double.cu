// Precompiled segmented reductions over double.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE_ALL(double)
