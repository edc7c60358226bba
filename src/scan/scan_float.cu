// Precompiled scans over float.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SCAN_OPS(float)
GPUPRIM_INSTANTIATE_SCAN_NAN_SKIPPING_OPS(float)
