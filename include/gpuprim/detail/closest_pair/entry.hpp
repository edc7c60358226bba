// The closest-pair family's entry points into its backends, side by side.
//
//   host (OpenMP, gpuprim/host/closest_pair.hpp)   CUDA (declared here)
//   host_impl::brute_force<Dim>                  cuda_closest_pair<T>
//   host_impl::blocked<Dim>                        (every algorithm, chosen
//   host_impl::divide_and_conquer<Dim>              on the host side of the
//   host_impl::grid<Dim>                            entry)
//
// detail::host_closest_pair (gpuprim/closest_pair.hpp) finds the bounds and
// the scale (host_impl::bounds), then runs one of the host ones.
#pragma once

#include "gpuprim/closest_pair_types.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/closest_pair/point_set.hpp"

namespace gpuprim::detail {

// Defined in gpuprim/cuda/device/device_closest_pair.cuh, compiled for each
// type of GPUPRIM_CLOSEST_PAIR_TYPES (precompiled.hpp) by src/closest_pair/.
// `points` are in device memory and n >= 2 (checked); the bounds are
// checked on the device. Synchronizes.
template <class T>
closest_pair_result cuda_closest_pair(const point_set<T>& points, closest_pair_algorithm algorithm,
                                      stream_t stream);

}  // namespace gpuprim::detail
