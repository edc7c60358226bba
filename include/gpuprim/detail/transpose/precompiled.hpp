// The element sizes the transpose is compiled for: one table (CMake
// generates transpose_<bytes>.cu from each line), read by the
// facade's concept (gp::transposable) and by the generated files.
#pragma once

#include <cstddef>
#include <type_traits>

#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_TRANSPOSE_SIZES(X)             \
  X(1, std::integral_constant<std::size_t, 1>) \
  X(2, std::integral_constant<std::size_t, 2>) \
  X(4, std::integral_constant<std::size_t, 4>) \
  X(8, std::integral_constant<std::size_t, 8>) \
  X(16, std::integral_constant<std::size_t, 16>)

namespace gpuprim::detail {

// One instantiation of cuda_transpose_sized<Size::value>.
template <class Size>
struct transpose_instance {};

template <std::size_t Bytes>
inline constexpr bool precompiled_transpose_size =
    one_of<std::integral_constant<std::size_t, Bytes> GPUPRIM_TRANSPOSE_SIZES(GPUPRIM_TYPE_OF)>;

}  // namespace gpuprim::detail
