// The scans compiled into the library: one table of element types (CMake
// generates scan_<name>.cu from each line) and, per element type,
// the list of its instances, read by the facade's check (precompiled_scan)
// and by the generated files.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_SCAN_TYPES(X) GPUPRIM_ARITHMETIC_TYPES(X)

namespace gpuprim::detail {

// One instantiation of cuda_scan_into<In, Out, T, Op, Fetch>.
template <class In, class Out, class T, class Op, class Fetch>
struct scan_instance {};

// Sums and NaN-propagating minima / maxima of every type, and the
// NaN-skipping minima / maxima (minimum_number, maximum_number) of floats.
template <class In>
using scan_instances_of =
    concat_t<type_list<scan_instance<In, In, In, plus, unary_fetch<identity>>,
                       scan_instance<In, In, In, minimum, unary_fetch<identity>>,
                       scan_instance<In, In, In, maximum, unary_fetch<identity>>>,
             keep_if<std::is_floating_point_v<In>,
                     type_list<scan_instance<In, In, In, minimum_number, unary_fetch<identity>>,
                               scan_instance<In, In, In, maximum_number, unary_fetch<identity>>>>>;

template <class In, class Out, class T, class Op, class Fetch>
inline constexpr bool precompiled_scan = one_of<In GPUPRIM_SCAN_TYPES(GPUPRIM_TYPE_OF)>&&
    contains<scan_instances_of<In>, scan_instance<In, Out, T, Op, Fetch>>;

}  // namespace gpuprim::detail
