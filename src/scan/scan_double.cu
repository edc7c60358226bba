// Precompiled scans over double.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SCAN_OPS(double)
GPUPRIM_INSTANTIATE_SCAN_NAN_SKIPPING_OPS(double)
