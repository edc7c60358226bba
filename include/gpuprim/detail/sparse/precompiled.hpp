// The SpMV compiled into the library: one table of (value, index) pairs
// (CMake generates src/sparse/spmv_<name>.cu from each line) and, per pair,
// the list of its instances, read by the generated files.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_SPARSE_TYPES(X)                                      \
  X(float_int32, gpuprim::detail::spmv_types<float, std::int32_t>)   \
  X(float_int64, gpuprim::detail::spmv_types<float, std::int64_t>)   \
  X(double_int32, gpuprim::detail::spmv_types<double, std::int32_t>) \
  X(double_int64, gpuprim::detail::spmv_types<double, std::int64_t>)

namespace gpuprim::detail {

template <class T, class I>
struct spmv_types {
  using value = T;
  using index = I;
};

// One instantiation of cuda_spmv<T, I>, and one of cuda_row_stats<I>.
template <class T, class I>
struct spmv_instance {};
template <class I>
struct row_stats_instance {};

// The row statistics depend on the index type only: the float files hold them.
template <class Types>
using spmv_instances_of =
    concat_t<type_list<spmv_instance<typename Types::value, typename Types::index>>,
             keep_if<std::is_same_v<typename Types::value, float>,
                     type_list<row_stats_instance<typename Types::index>>>>;

template <class T, class I>
inline constexpr bool precompiled_spmv =
    one_of<spmv_types<T, I> GPUPRIM_SPARSE_TYPES(GPUPRIM_TYPE_OF)>;

}  // namespace gpuprim::detail
