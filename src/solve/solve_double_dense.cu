// Precompiled solvers on dense row-major double matrices.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SOLVE(double, GPUPRIM_DENSE(double))
