// Precompiled reductions over bytes: sums widen to 64 bits.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_REDUCE_OPS(std::uint8_t)
GPUPRIM_INSTANTIATE_REDUCE(std::uint8_t, std::uint64_t, gpuprim::plus,
                           gpuprim::detail::unary_fetch<gpuprim::identity>)
