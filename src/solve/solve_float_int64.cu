// Precompiled solvers on CSR matrices of float values with int64 indices.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SOLVE(float, GPUPRIM_CSR(float, std::int64_t))
