// The element types the convolutions are compiled for: one table (CMake
// generates convolve_<name>.cu from each line), read by the
// facade's concept (detail::convolve_value) and by the generated files.
#pragma once

#include <cstdint>

#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_CONVOLVE_TYPES(X) \
  GPUPRIM_FLOAT_TYPES(X)          \
  X(uint8, std::uint8_t)

// The input element types of the N-D filters on the GPU (convolve_nd.hpp):
// one instance of cuda_nd_filter<In> each, which takes every output type
// (dispatched at run time, once per output element), so the table has a
// row per input type instead of one per pair. bool rows as its bytes.
#define GPUPRIM_CONVOLVE_ND_TYPES(X) \
  X(boolean, bool)                   \
  X(int8, std::int8_t)               \
  X(uint8, std::uint8_t)             \
  X(int16, std::int16_t)             \
  X(uint16, std::uint16_t)           \
  X(int32, std::int32_t)             \
  X(uint32, std::uint32_t)           \
  X(int64, std::int64_t)             \
  X(uint64, std::uint64_t)           \
  X(float32, float)                  \
  X(float64, double)

namespace gpuprim::detail {

// One instantiation of cuda_nd_filter<In>.
template <class In>
struct convolve_nd_instance {};

// One instantiation of cuda_convolve<T>.
template <class T>
struct convolve_instance {};

template <class T>
inline constexpr bool precompiled_convolve = one_of<T GPUPRIM_CONVOLVE_TYPES(GPUPRIM_TYPE_OF)>;

}  // namespace gpuprim::detail
