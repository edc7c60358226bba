// The element types the convolutions are compiled for: one table (CMake
// generates convolve_<name>.cu from each line), read by the
// facade's concept (detail::convolve_value) and by the generated files.
#pragma once

#include <cstdint>

#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_CONVOLVE_TYPES(X) \
  GPUPRIM_FLOAT_TYPES(X)          \
  X(uint8, std::uint8_t)

namespace gpuprim::detail {

// One instantiation of cuda_convolve<T>.
template <class T>
struct convolve_instance {};

template <class T>
inline constexpr bool precompiled_convolve = one_of<T GPUPRIM_CONVOLVE_TYPES(GPUPRIM_TYPE_OF)>;

}  // namespace gpuprim::detail
