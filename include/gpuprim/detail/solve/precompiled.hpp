// The GPU solvers compiled into the library (all four methods): one table
// of (value, matrix) pairs (CMake generates solve_<name>.cu from
// each line), read by the facade's check (precompiled_solve) and by the
// generated files.
#pragma once

#include <cstdint>

#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/sparse/csr.hpp"
#include "gpuprim/detail/type_list.hpp"

#define GPUPRIM_SOLVE_TYPES(X)                                              \
  X(float_dense, type_pair<float, device_matrix_view<const float>>)         \
  X(float_int32, type_pair<float, device_csr_view<float, std::int32_t>>)    \
  X(float_int64, type_pair<float, device_csr_view<float, std::int64_t>>)    \
  X(double_dense, type_pair<double, device_matrix_view<const double>>)      \
  X(double_int32, type_pair<double, device_csr_view<double, std::int32_t>>) \
  X(double_int64, type_pair<double, device_csr_view<double, std::int64_t>>)

namespace gpuprim::detail {

// cuda_solve<T, Op>: values T, the matrix as Op (device_csr_view<T, I> or
// device_matrix_view<const T>); a row is type_pair<T, Op>.
template <class T, class Op>
struct solve_instance {};

template <class Types>
using solve_instances_of = type_list<solve_instance<typename Types::first, typename Types::second>>;

template <class T, class Op>
inline constexpr bool precompiled_solve =
    one_of<type_pair<T, Op> GPUPRIM_SOLVE_TYPES(GPUPRIM_TYPE_OF)>;

}  // namespace gpuprim::detail
