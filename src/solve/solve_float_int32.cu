// Precompiled solvers on CSR matrices of float values with int32 indices.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SOLVE(float, GPUPRIM_CSR(float, std::int32_t))
