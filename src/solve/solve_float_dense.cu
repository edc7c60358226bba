// Precompiled solvers on dense row-major float matrices.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SOLVE(float, GPUPRIM_DENSE(float))
