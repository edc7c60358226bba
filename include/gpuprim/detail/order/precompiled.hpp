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

// Keys only, in merge and merge sort.
struct order_no_value {};

// One instantiation of cuda_search_into.
template <bool upper, class T, class Q, class I, class Comp>
struct search_instance {};

template <class T, class I, class Comp>
using search_both_sides =
    type_list<search_instance<false, T, T, I, Comp>, search_instance<true, T, T, I, Comp>>;

template <class T, class I>
using search_comparators = concat_t<search_both_sides<T, I, less>, search_both_sides<T, I, greater>,
                                    search_both_sides<T, I, nan_last_less>>;

// One instantiation of cuda_merge_into, of cuda_merge_sort_into, of
// cuda_topk_into.
template <class K, class V, class Comp>
struct merge_instance {};
template <class K, class V, class Comp>
struct merge_sort_instance {};
template <class T>
struct topk_instance {};

// Per element type T: both bounds of queries of T, by gp::less, gp::greater
// and NumPy's order (gp::nan_last_less; numpy.searchsorted's), into 64-
// and 32-bit indices; merge by gp::less, keys only or with int64 values;
// merge sort by gp::less and gp::greater, keys only or with int64 values;
// top-k (which sorts (T, int64) pairs by NumPy's order both ways, and
// int64 row numbers with int64 values).
template <class T>
using order_instances_of =
    concat_t<search_comparators<T, std::int64_t>, search_comparators<T, std::int32_t>,
             type_list<merge_instance<T, order_no_value, less>,
                       merge_instance<T, std::int64_t, less>,
                       merge_sort_instance<T, order_no_value, less>,
                       merge_sort_instance<T, order_no_value, greater>,
                       merge_sort_instance<T, std::int64_t, less>,
                       merge_sort_instance<T, std::int64_t, greater>, topk_instance<T>>>;

template <class T>
inline constexpr bool order_type = one_of<T GPUPRIM_ORDER_TYPES(GPUPRIM_TYPE_OF)>;

template <class K, class V, class Comp>
inline constexpr bool precompiled_merge =
    order_type<K> && contains<order_instances_of<K>, merge_instance<K, V, Comp>>;

// topk's own sorts are compiled with it, into the library.
template <class K, class V, class Comp>
inline constexpr bool precompiled_merge_sort =
    order_type<K> && contains<order_instances_of<K>, merge_sort_instance<K, V, Comp>>;

template <class T>
inline constexpr bool precompiled_topk = order_type<T>;

template <bool upper, class T, class Q, class I, class Comp>
inline constexpr bool precompiled_search = one_of<T GPUPRIM_ORDER_TYPES(GPUPRIM_TYPE_OF)>&&
    contains<order_instances_of<T>, search_instance<upper, T, Q, I, Comp>>;

}  // namespace gpuprim::detail
