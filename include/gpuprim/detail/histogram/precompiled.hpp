// The histograms compiled into the library: one table of sample types (CMake
// generates histogram_<name>.cu from each line) and, per sample
// type, the list of its instances, read by the facade's check
// (precompiled_histogram) and by the generated files. int8, int16 and
// uint16 have NumPy's rule only (numpy_histogram and
// numpy_histogram_of_edges with 64-bit counters, which the Python package
// calls), to keep the build small.
#pragma once

#include <cstdint>

#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_HISTOGRAM_TYPES(X) \
  GPUPRIM_NARROW_INTEGER_TYPES(X)  \
  GPUPRIM_32_BIT_INTEGER_TYPES(X)  \
  GPUPRIM_FLOAT_TYPES(X)

namespace gpuprim::detail {

template <class T>
struct even_binner;
template <class T>
struct range_binner;
template <class T>
struct numpy_binner;
template <class T>
struct numpy_edges_binner;

// One instantiation of cuda_histogram_into<Sample, Counter, Binner>.
template <class Sample, class Counter, class Binner>
struct histogram_instance {};

// The sample types precompiled for NumPy's rule alone.
template <class T>
inline constexpr bool numpy_rule_only_sample = one_of<T, std::int8_t, std::int16_t, std::uint16_t>;

// NumPy's rule (numpy_histogram's even bins, numpy_histogram_of_edges's
// array of edges) with 64-bit counters for every sample type; for the
// others also with 32-bit counters, and histogram_even's default rule and
// histogram_range.
template <class T>
using histogram_instances_of =
    concat_t<type_list<histogram_instance<T, std::uint64_t, numpy_binner<T>>,
                       histogram_instance<T, std::uint64_t, numpy_edges_binner<T>>>,
             keep_if<!numpy_rule_only_sample<T>,
                     type_list<histogram_instance<T, std::uint32_t, even_binner<T>>,
                               histogram_instance<T, std::uint64_t, even_binner<T>>,
                               histogram_instance<T, std::uint32_t, range_binner<T>>,
                               histogram_instance<T, std::uint64_t, range_binner<T>>,
                               histogram_instance<T, std::uint32_t, numpy_binner<T>>,
                               histogram_instance<T, std::uint32_t, numpy_edges_binner<T>>>>>;

template <class Sample, class Counter, class Binner>
inline constexpr bool precompiled_histogram =
    one_of<Sample GPUPRIM_HISTOGRAM_TYPES(GPUPRIM_TYPE_OF)>&&
        contains<histogram_instances_of<Sample>, histogram_instance<Sample, Counter, Binner>>;

}  // namespace gpuprim::detail
