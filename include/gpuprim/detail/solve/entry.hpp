// The iterative solvers' entry points into their backends, side by side.
//
//   host (OpenMP, gpuprim/host/solve.hpp)   CUDA (declared here)
//   host_impl::cg                         cuda_solve(method, ...)
//   host_impl::bicgstab                     (every method, chosen on the
//   host_impl::richardson (and jacobi)       host side of the entry)
//
// The host ones are run by detail::solve::host_solve (gpuprim/solve.hpp).
// The CUDA one is defined in gpuprim/cuda/device/device_solve.cuh and
// compiled into the library for each pair of GPUPRIM_SOLVE_TYPES
// (precompiled.hpp) by src/solve/.
#pragma once

#include <cstddef>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/solve_types.hpp"

namespace gpuprim::detail {

// Op is device_csr_view<T, I> or device_matrix_view<const T>. Checks the
// diagonal when it is needed (std::invalid_argument before x is written).
template <class T, class Op>
solve_result cuda_solve(solve_method method, const Op& A, const T* b, T* x, std::size_t n,
                        const solve_options& opts, std::size_t max_iterations, stream_t stream);

}  // namespace gpuprim::detail
