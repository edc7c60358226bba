// The radix sort's key types, every one compiled into the library: one
// table (CMake generates sort_<name>.cu from each line), read by
// the facade's check (precompiled_sort) and by the generated files.
#pragma once

#include <cstdint>

#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_SORT_TYPES(X) GPUPRIM_NARROW_INTEGER_TYPES(X) GPUPRIM_ARITHMETIC_TYPES(X)

namespace gpuprim::detail {

// One instantiation of cuda_radix_sort<K> (values move with the keys as
// opaque 4- or 8-byte words, so the key type alone names it).
template <class K>
struct radix_sort_instance {};

template <class K>
inline constexpr bool precompiled_sort = one_of<K GPUPRIM_SORT_TYPES(GPUPRIM_TYPE_OF)>;

}  // namespace gpuprim::detail
