// The selections compiled into the library: one table of element types
// (CMake generates select_<name>.cu from each line) and, per element type,
// the list of its selections. The facade's check (precompiled_select) and
// the generated files both read them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/detail/select/selections.hpp"
#include "gpuprim/detail/type_list.hpp"
#include "gpuprim/select_types.hpp"

#define GPUPRIM_SELECT_TYPES(X) \
  X(uint8, std::uint8_t)        \
  GPUPRIM_ARITHMETIC_TYPES(X)

namespace gpuprim::detail {

// One instantiation of cuda_select_into<S>.
template <class S>
struct select_instance {};

// For keys without NaN, same_value is equal_to; the library calls (and
// precompiles) equal_to then.
template <class K, class Eq>
using plain_equality_t =
    std::conditional_t<!std::is_floating_point_v<K> && std::is_same_v<Eq, same_value>, equal_to,
                       Eq>;
template <class K, class Eq>
constexpr plain_equality_t<K, Eq> plain_equality(const Eq& eq) {
  if constexpr (std::is_same_v<plain_equality_t<K, Eq>, Eq>) {
    return eq;
  } else {
    return {};
  }
}

// Per element type T: copy_if / count_if / partition with nonzero and
// compare_with<T>; the indices of nonzero elements (numpy.nonzero);
// copy_flagged with byte flags; partition_three_way with two comparisons;
// unique, unique_by_key with 64-bit values (numpy.unique's return_index),
// run lengths as 64-bit counts (and 32-bit, as CUB's users count them),
// reduce_by_key sums of T (and of float and double values by integer
// keys); for floating keys also the NaN-merging forms (same_value,
// numpy.unique's equal_nan).
template <class T, class Eq>
using select_runs_instances =
    type_list<select_instance<unique_runs<T, no_values, Eq>>,
              select_instance<unique_runs<T, std::int64_t, Eq>>,
              select_instance<reduce_runs<T, unit_values<std::int64_t>, plus, Eq>>>;

template <class T>
using select_instances_of = concat_t<
    type_list<
        select_instance<select_if<T, nonzero>>, select_instance<select_if<T, compare_with<T>>>,
        select_instance<select_index_if<T, nonzero, std::int64_t>>,
        select_instance<select_flagged<T, std::uint8_t>>, select_instance<partition_if<T, nonzero>>,
        select_instance<partition_if<T, compare_with<T>>>,
        select_instance<partition_three<T, compare_with<T>, compare_with<T>>>,
        select_instance<reduce_runs<T, array_values<T>, plus, equal_to>>,
        select_instance<reduce_runs<T, unit_values<std::int32_t>, plus, equal_to>>>,
    select_runs_instances<T, equal_to>,
    keep_if<!std::is_floating_point_v<T>,
            type_list<select_instance<reduce_runs<T, array_values<float>, plus, equal_to>>,
                      select_instance<reduce_runs<T, array_values<double>, plus, equal_to>>>>,
    keep_if<std::is_floating_point_v<T>, select_runs_instances<T, same_value>>>;

template <class T>
inline constexpr bool select_type_precompiled = one_of<T GPUPRIM_SELECT_TYPES(GPUPRIM_TYPE_OF)>;

template <class S>
inline constexpr bool precompiled_select = select_type_precompiled<typename S::staged>&&
    contains<select_instances_of<typename S::staged>, select_instance<S>>;

}  // namespace gpuprim::detail
