// The coordinate types the GPU closest pair is compiled for (every
// algorithm, 2-D and 3-D): one table (CMake generates
// closest_pair_<name>.cu from each line), read by the
// facade's concept (gp::closest_pair_coordinate) and by the generated files.
#pragma once

#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_CLOSEST_PAIR_TYPES(X) GPUPRIM_FLOAT_TYPES(X)

namespace gpuprim::detail {

// cuda_closest_pair<T> and the run it calls, cuda_impl::run_closest_pair<T>
// (which the ladder calls directly).
template <class T>
struct closest_pair_instance {};

template <class T>
inline constexpr bool precompiled_closest_pair =
    one_of<T GPUPRIM_CLOSEST_PAIR_TYPES(GPUPRIM_TYPE_OF)>;

}  // namespace gpuprim::detail
