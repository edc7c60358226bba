// Precompiled scans over std::int64_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SCAN_OPS(std::int64_t)
