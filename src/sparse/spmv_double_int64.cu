// Precompiled SpMV of double values with int64 indices.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SPMV(double, std::int64_t)
