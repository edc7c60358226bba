// Precompiled scans over std::int32_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SCAN_OPS(std::int32_t)
