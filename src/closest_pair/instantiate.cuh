// Explicit instantiations of the device closest pair (every algorithm, 2-D
// and 3-D) for the coordinate types gp::closest_pair accepts.
#pragma once

#include "gpuprim/cuda/device/device_closest_pair.cuh"

#define GPUPRIM_INSTANTIATE_CLOSEST_PAIR(T)                                                      \
  template gpuprim::closest_pair_result gpuprim::detail::cuda_closest_pair<T>(                   \
      const gpuprim::detail::point_set<T>&, gpuprim::closest_pair_algorithm, gpuprim::stream_t); \
  template gpuprim::closest_pair_result gpuprim::cuda_detail::run_closest_pair<T>(               \
      const gpuprim::detail::point_set<T>&, gpuprim::closest_pair_algorithm,                     \
      gpuprim::closest_pair_launch, gpuprim::stream_t);
