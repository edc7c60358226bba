// Explicit instantiations of the device segmented reduction for the
// library's precompiled combinations (kept in step with
// detail::precompiled_segmented_reduce in gpuprim/segmented.hpp;
// tests/cuda/segmented_reduce_test.cpp calls every one from plain C++, so a
// missing one is a link error).
#pragma once

#include "gpuprim/cuda/device/device_segmented_reduce.cuh"
#include "gpuprim/segmented.hpp"

#define GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE(T, Offset, Op)                    \
  template void gpuprim::detail::cuda_segmented_reduce_into<T, T, Offset, Op>( \
      const T*, std::size_t, const Offset*, std::size_t, T*, T, Op, gpuprim::stream_t);

#define GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE_OPS(T, Offset)         \
  GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE(T, Offset, gpuprim::plus)    \
  GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE(T, Offset, gpuprim::minimum) \
  GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE(T, Offset, gpuprim::maximum)

#define GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE_ALL(T)          \
  GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE_OPS(T, std::uint64_t) \
  GPUPRIM_INSTANTIATE_SEGMENTED_REDUCE_OPS(T, std::int64_t)
