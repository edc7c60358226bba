// Explicit instantiations of the device reduction for the library's
// precompiled combinations (kept in step with detail::precompiled_reduce in
// gpuprim/reduce.hpp; tests/host/precompiled_test.cpp calls every one from a
// plain C++ file, so a missing one is a link error in CI).
#pragma once

#include "gpuprim/cuda/device/device_reduce.cuh"
#include "gpuprim/reduce.hpp"

#define GPUPRIM_INSTANTIATE_REDUCE(In, T, Op, Fetch)                                               \
  template void gpuprim::detail::cuda_reduce_into<In, T, Op, Fetch>(const In*, std::size_t, T*, T, \
                                                                    Op, Fetch, gpuprim::stream_t);

#define GPUPRIM_INSTANTIATE_REDUCE_OPS(T)                                                          \
  GPUPRIM_INSTANTIATE_REDUCE(T, T, gpuprim::plus, gpuprim::detail::unary_fetch<gpuprim::identity>) \
  GPUPRIM_INSTANTIATE_REDUCE(T, T, gpuprim::minimum,                                               \
                             gpuprim::detail::unary_fetch<gpuprim::identity>)                      \
  GPUPRIM_INSTANTIATE_REDUCE(T, T, gpuprim::maximum,                                               \
                             gpuprim::detail::unary_fetch<gpuprim::identity>)

#define GPUPRIM_INSTANTIATE_EXTREME_ELEMENT(T)                                        \
  GPUPRIM_INSTANTIATE_REDUCE(T, gpuprim::value_index<T>, gpuprim::detail::select_min, \
                             gpuprim::detail::value_index_fetch)                      \
  GPUPRIM_INSTANTIATE_REDUCE(T, gpuprim::value_index<T>, gpuprim::detail::select_max, \
                             gpuprim::detail::value_index_fetch)

// The NaN-skipping forms (numpy.fmin/fmax, nanargmin/nanargmax, nansum),
// for floating types only: for the others they are the plain forms.
#define GPUPRIM_INSTANTIATE_NAN_SKIPPING(T)                                                  \
  GPUPRIM_INSTANTIATE_REDUCE(T, T, gpuprim::minimum_number,                                  \
                             gpuprim::detail::unary_fetch<gpuprim::identity>)                \
  GPUPRIM_INSTANTIATE_REDUCE(T, T, gpuprim::maximum_number,                                  \
                             gpuprim::detail::unary_fetch<gpuprim::identity>)                \
  GPUPRIM_INSTANTIATE_REDUCE(T, gpuprim::value_index<T>, gpuprim::detail::select_min_number, \
                             gpuprim::detail::value_index_fetch)                             \
  GPUPRIM_INSTANTIATE_REDUCE(T, gpuprim::value_index<T>, gpuprim::detail::select_max_number, \
                             gpuprim::detail::value_index_fetch)                             \
  GPUPRIM_INSTANTIATE_REDUCE(T, double, gpuprim::plus,                                       \
                             gpuprim::detail::unary_fetch<gpuprim::nan_to_zero>)

#define GPUPRIM_INSTANTIATE_SIGNED_TRANSFORMS(T)                                                 \
  GPUPRIM_INSTANTIATE_REDUCE(T, T, gpuprim::plus, gpuprim::detail::unary_fetch<gpuprim::square>) \
  GPUPRIM_INSTANTIATE_REDUCE(T, T, gpuprim::plus, gpuprim::detail::unary_fetch<gpuprim::absolute>)
