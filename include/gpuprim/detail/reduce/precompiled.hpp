// The reductions compiled into the library: one table of element types
// (CMake generates reduce_<name>.cu from each line) and, per
// element type, the list of its instances. Both the facade's check
// (precompiled_reduce) and the generated files read them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_REDUCE_TYPES(X) GPUPRIM_NARROW_INTEGER_TYPES(X) GPUPRIM_ARITHMETIC_TYPES(X)

namespace gpuprim::detail {

// One instantiation of cuda_reduce_into<In, T, Op, Fetch>.
template <class In, class T, class Op, class Fetch>
struct reduce_instance {};

// For element types without NaN, the NaN-skipping operators are the plain
// ones; the library calls (and precompiles) the plain ones then.
template <class In, class Op>
struct without_needless_nan_rule {
  using type = Op;
};
template <class In, class Op>
requires(!std::is_floating_point_v<In>) struct without_needless_nan_rule<In, Op> {
  using type = std::conditional_t<
      std::is_same_v<Op, minimum_number>, minimum,
      std::conditional_t<
          std::is_same_v<Op, maximum_number>, maximum,
          std::conditional_t<
              std::is_same_v<Op, select_min_number>, select_min,
              std::conditional_t<std::is_same_v<Op, select_max_number>, select_max, Op>>>>;
};
template <class In, class Op>
using without_needless_nan_rule_t = typename without_needless_nan_rule<In, Op>::type;

// The narrow integers whose only precompiled reductions are the minimum and
// the maximum (the data's range of numpy_histogram on the GPU).
template <class In>
inline constexpr bool min_max_only_reduce = one_of<In, std::int8_t, std::int16_t, std::uint16_t>;

// The precompiled reductions over In: minima and maxima of every type; sums
// of every type but int8, int16 and uint16; first smallest / largest
// elements of those and not of bytes; sums of squares and of absolute values
// of the signed types among them; the NaN-skipping forms (numpy.fmin / fmax,
// nanargmin / nanargmax, nansum in double) of the floating types; and the
// widened sums bytes -> uint64, float -> double.
template <class In>
using reduce_instances_of = concat_t<
    keep_if<!min_max_only_reduce<In>,
            type_list<reduce_instance<In, In, plus, unary_fetch<identity>>>>,
    type_list<reduce_instance<In, In, minimum, unary_fetch<identity>>,
              reduce_instance<In, In, maximum, unary_fetch<identity>>>,
    keep_if<!std::is_same_v<In, std::uint8_t> && !min_max_only_reduce<In>,
            type_list<reduce_instance<In, value_index<In>, select_min, value_index_fetch>,
                      reduce_instance<In, value_index<In>, select_max, value_index_fetch>>>,
    keep_if<std::is_signed_v<In> && !min_max_only_reduce<In>,
            type_list<reduce_instance<In, In, plus, unary_fetch<square>>,
                      reduce_instance<In, In, plus, unary_fetch<absolute>>>>,
    keep_if<std::is_floating_point_v<In>,
            type_list<reduce_instance<In, In, minimum_number, unary_fetch<identity>>,
                      reduce_instance<In, In, maximum_number, unary_fetch<identity>>,
                      reduce_instance<In, value_index<In>, select_min_number, value_index_fetch>,
                      reduce_instance<In, value_index<In>, select_max_number, value_index_fetch>,
                      reduce_instance<In, double, plus, unary_fetch<nan_to_zero>>>>,
    keep_if<std::is_same_v<In, float>,
            type_list<reduce_instance<float, double, plus, unary_fetch<identity>>>>,
    keep_if<std::is_same_v<In, std::uint8_t>,
            type_list<reduce_instance<std::uint8_t, std::uint64_t, plus, unary_fetch<identity>>>>>;

template <class In, class T, class Op, class Fetch>
inline constexpr bool precompiled_reduce = one_of<In GPUPRIM_REDUCE_TYPES(GPUPRIM_TYPE_OF)>&&
    contains<reduce_instances_of<In>, reduce_instance<In, T, Op, Fetch>>;

}  // namespace gpuprim::detail
