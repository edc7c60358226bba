// Precompiled reductions over float.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_REDUCE_OPS(float)
GPUPRIM_INSTANTIATE_EXTREME_ELEMENT(float)
GPUPRIM_INSTANTIATE_SIGNED_TRANSFORMS(float)
GPUPRIM_INSTANTIATE_NAN_SKIPPING(float)
GPUPRIM_INSTANTIATE_REDUCE(float, double, gpuprim::plus,
                           gpuprim::detail::unary_fetch<gpuprim::identity>)
