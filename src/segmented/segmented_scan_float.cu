// Precompiled segmented scans over float (head flags; offsets become flags).
#include "segmented_scan_instantiate.cuh"

GPUPRIM_INSTANTIATE_SEGMENTED_SCAN(float)
