// Precompiled solvers on CSR matrices of double values with int64 indices.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SOLVE(double, GPUPRIM_CSR(double, std::int64_t))
