// Precompiled SpMV of double values with int32 indices.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SPMV(double, std::int32_t)
