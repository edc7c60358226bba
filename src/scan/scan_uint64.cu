// Precompiled scans over std::uint64_t.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SCAN_OPS(std::uint64_t)
