// The order family's instances compiled into the library: one table of
// element types (CMake generates order_<name>.cu from each line) and, per
// type, the list of its instances. The facade's check (precompiled_search)
// and the generated files both read them.
#pragma once

#include <cstdint>

#include "gpuprim/detail/type_list.hpp"
#include "gpuprim/order_types.hpp"

#define GPUPRIM_ORDER_TYPES(X) GPUPRIM_ARITHMETIC_TYPES(X)

namespace gpuprim::detail {

// One instantiation of cuda_search_into.
template <bool upper, class T, class Q, class I, class Comp>
struct search_instance {};

template <class T, class I, class Comp>
using search_both_sides =
    type_list<search_instance<false, T, T, I, Comp>, search_instance<true, T, T, I, Comp>>;

template <class T, class I>
using search_comparators = concat_t<search_both_sides<T, I, less>, search_both_sides<T, I, greater>,
                                    search_both_sides<T, I, nan_last_less>>;

// Per element type T: both bounds of queries of T, by gp::less, gp::greater
// and NumPy's order (gp::nan_last_less; numpy.searchsorted's), into 64-
// and 32-bit indices.
template <class T>
using order_instances_of =
    concat_t<search_comparators<T, std::int64_t>, search_comparators<T, std::int32_t>>;

template <bool upper, class T, class Q, class I, class Comp>
inline constexpr bool precompiled_search = one_of<T GPUPRIM_ORDER_TYPES(GPUPRIM_TYPE_OF)>&&
    contains<order_instances_of<T>, search_instance<upper, T, Q, I, Comp>>;

}  // namespace gpuprim::detail
