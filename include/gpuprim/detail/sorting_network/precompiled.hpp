// The sorting networks compiled into the library: one table of key types
// (CMake generates sorting_network_<name>.cu from each
// line) and, per key type, the list of its instances, read by the facade's
// check (precompiled_sorting_network) and by the generated files.
#pragma once

#include <cstdint>

#include "gpuprim/detail/type_list.hpp"
#include "gpuprim/sort_types.hpp"

#define GPUPRIM_SORTING_NETWORK_TYPES(X) GPUPRIM_ARITHMETIC_TYPES(X)

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
