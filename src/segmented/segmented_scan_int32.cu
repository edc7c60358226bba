// Precompiled segmented scans over std::int32_t (head flags; offsets become flags).
#include "segmented_scan_instantiate.cuh"

GPUPRIM_INSTANTIATE_SEGMENTED_SCAN(std::int32_t)
