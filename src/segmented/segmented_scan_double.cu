// Precompiled segmented scans over double (head flags; offsets become flags).
#include "segmented_scan_instantiate.cuh"

GPUPRIM_INSTANTIATE_SEGMENTED_SCAN(double)
