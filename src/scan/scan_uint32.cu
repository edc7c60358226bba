// Precompiled scans over std::uint32_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SCAN_OPS(std::uint32_t)
