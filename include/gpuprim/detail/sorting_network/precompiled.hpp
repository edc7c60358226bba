// The sorting networks compiled into the library: one table of key types
// (CMake generates src/sorting_network/sorting_network_<name>.cu from each
// line) and, per key type, the list of its instances, read by the facade's
// check (precompiled_sorting_network) and by the generated files.
#pragma once

#include <cstdint>

#include "gpuprim/detail/sort/radix_key.hpp"
#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_SORTING_NETWORK_TYPES(X) \
  X(int32, std::int32_t)                 \
  X(uint32, std::uint32_t)               \
  X(int64, std::int64_t)                 \
  X(uint64, std::uint64_t)               \
  X(float, float)                        \
  X(double, double)

namespace gpuprim::detail {

// The four networks (bitonic_sort, odd_even_merge_sort, sort_batched,
// segmented_sort) of keys T under the comparator Comp.
template <class T, class Comp>
struct sorting_network_instance {};

template <class T>
using sorting_network_instances_of =
    type_list<sorting_network_instance<T, sort_less>, sorting_network_instance<T, sort_greater>>;

template <class T, class Comp>
inline constexpr bool precompiled_sorting_network =
    one_of<T GPUPRIM_SORTING_NETWORK_TYPES(GPUPRIM_TYPE_OF)>&&
        contains<sorting_network_instances_of<T>, sorting_network_instance<T, Comp>>;

}  // namespace gpuprim::detail
