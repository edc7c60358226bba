// Precompiled scans over double.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SCAN_OPS(double)
