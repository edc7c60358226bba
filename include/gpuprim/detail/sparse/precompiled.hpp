// The SpMV compiled into the library: one table of (value, index) pairs
// (CMake generates spmv_<name>.cu from each line) and, per pair,
// the list of its instances, read by the generated files.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_SPARSE_TYPES(X)                    \
  X(float_int32, type_pair<float, std::int32_t>)   \
  X(float_int64, type_pair<float, std::int64_t>)   \
  X(double_int32, type_pair<double, std::int32_t>) \
  X(double_int64, type_pair<double, std::int64_t>)

namespace gpuprim::detail {

// One instantiation of cuda_spmv<T, I>, and one each of cuda_row_stats<I>
// and cuda_check_csr<I>.
template <class T, class I>
struct spmv_instance {};
template <class I>
struct row_stats_instance {};
template <class I>
struct csr_check_instance {};

// The row statistics and the structure check depend on the index type
// only: the float files hold them.
template <class Types>
using spmv_instances_of =
    concat_t<type_list<spmv_instance<typename Types::first, typename Types::second>>,
             keep_if<std::is_same_v<typename Types::first, float>,
                     type_list<row_stats_instance<typename Types::second>,
                               csr_check_instance<typename Types::second>>>>;

template <class T, class I>
inline constexpr bool precompiled_spmv =
    one_of<type_pair<T, I> GPUPRIM_SPARSE_TYPES(GPUPRIM_TYPE_OF)>;

}  // namespace gpuprim::detail
