// The radix sort's key types, every one compiled into the library: one
// table (CMake generates src/sort/sort_<name>.cu from each line), read by
// the facade's check (precompiled_sort) and by the generated files.
#pragma once

#include <cstdint>

#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_SORT_TYPES(X) \
  X(int8, std::int8_t)        \
  X(uint8, std::uint8_t)      \
  X(int16, std::int16_t)      \
  X(uint16, std::uint16_t)    \
  X(int32, std::int32_t)      \
  X(uint32, std::uint32_t)    \
  X(int64, std::int64_t)      \
  X(uint64, std::uint64_t)    \
  X(float, float)             \
  X(double, double)

namespace gpuprim::detail {

// One instantiation of cuda_radix_sort<K> (values move with the keys as
// opaque 4- or 8-byte words, so the key type alone names it).
template <class K>
struct radix_sort_instance {};

template <class K>
using radix_sort_instances_of = type_list<radix_sort_instance<K>>;

template <class K>
inline constexpr bool precompiled_sort = one_of<K GPUPRIM_SORT_TYPES(GPUPRIM_TYPE_OF)>;

}  // namespace gpuprim::detail
