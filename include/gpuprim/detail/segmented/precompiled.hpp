// The segmented reductions and scans compiled into the library: one table
// of value types (CMake generates segmented_reduce_<name>.cu and
// segmented_scan_<name>.cu from each line) and, per value type, the
// list of its instances, read by the facade's checks and by the generated
// files.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/detail/scan/precompiled.hpp"
#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_SEGMENTED_TYPES(X) GPUPRIM_ARITHMETIC_TYPES(X)

namespace gpuprim::detail {

// One instantiation of cuda_segmented_reduce_into<In, T, Offset, Op>.
template <class In, class T, class Offset, class Op>
struct segmented_reduce_instance {};

// One instantiation of cuda_mark_segment_heads<Offset>.
template <class Offset>
struct segment_heads_instance {};

// Sums, minima and maxima with 64-bit offsets, signed or not.
template <class T>
using segmented_reduce_instances_of =
    type_list<segmented_reduce_instance<T, T, std::uint64_t, plus>,
              segmented_reduce_instance<T, T, std::uint64_t, minimum>,
              segmented_reduce_instance<T, T, std::uint64_t, maximum>,
              segmented_reduce_instance<T, T, std::int64_t, plus>,
              segmented_reduce_instance<T, T, std::int64_t, minimum>,
              segmented_reduce_instance<T, T, std::int64_t, maximum>>;

// Inclusive and exclusive sums over byte head flags (offsets become head
// flags first: the int64 file also holds the offsets' marking).
template <class T>
using segmented_scan_instances_of = concat_t<
    type_list<scan_instance<T, T, flagged<T>, segmented<plus>, head_flag_fetch<T, std::uint8_t>>,
              scan_instance<T, T, flagged<T>, segmented<plus>,
                            exclusive_head_flag_fetch<T, T, std::uint8_t>>>,
    keep_if<std::is_same_v<T, std::int64_t>, type_list<segment_heads_instance<std::uint64_t>,
                                                       segment_heads_instance<std::int64_t>>>>;

template <class In, class T, class Offset, class Op>
inline constexpr bool precompiled_segmented_reduce =
    one_of<In GPUPRIM_SEGMENTED_TYPES(GPUPRIM_TYPE_OF)>&&
        contains<segmented_reduce_instances_of<In>, segmented_reduce_instance<In, T, Offset, Op>>;

template <class V, class Flag, class Op>
inline constexpr bool precompiled_segmented_scan =
    one_of<V GPUPRIM_SEGMENTED_TYPES(GPUPRIM_TYPE_OF)>&&
        contains<segmented_scan_instances_of<V>,
                 scan_instance<V, V, flagged<V>, segmented<Op>, head_flag_fetch<V, Flag>>>;

}  // namespace gpuprim::detail
