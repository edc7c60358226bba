// Reduction family: reduce, transform_reduce, min_element, max_element.
//
//   float s = gp::reduce(gp::cuda, d_x, 0.0f);                  // sum
//   float m = gp::reduce(gp::host, x, -INFINITY, gp::maximum{});
//   double ss = gp::transform_reduce(gp::cuda, d_x, 0.0, gp::plus{}, gp::square{});
//   gp::value_index<float> lo = gp::min_element(gp::cuda, d_x);
//   gp::reduce_into(gp::cuda.on(s), d_x, d_out, 0.0f);          // async, result on device
//
// Semantics, for every backend:
//  - The result is init op x[0] op x[1] op ... op x[n-1] for an associative
//    `op`, with the terms grouped in an unspecified but fixed way: the
//    operator need not be commutative, and floating-point results are the
//    same from run to run on one device (or one host thread count).
//  - Elements are converted with the transform (or as they are) to T, the
//    type of `init`: reduce(gp::cuda, bytes, std::uint64_t{0}) sums bytes
//    into a 64-bit total.
//  - min_element / max_element return the value and the index of the first
//    smallest / largest element. NaN follows a rule (gp::nan_rule): by
//    default it propagates, so the first NaN is the answer, as
//    numpy.argmin / numpy.min give; with gp::nan_rule::skip NaNs are passed
//    over unless all values are NaN (numpy.nanargmin / numpy.nanmin). On
//    empty input the index is 0 (== size) and the value is T{}.
//  - gp::minimum / gp::maximum propagate NaN (numpy.minimum);
//    gp::minimum_number / gp::maximum_number skip it (numpy.fmin), see
//    core/operators.hpp. The sum of gp::nan_to_zero is numpy.nansum.
//
// The GPU overloads take a gp::device_span or gp::device_vector; the host
// overloads any contiguous host range. From plain C++ (no nvcc), the GPU
// backend is available for the types and operators the library precompiles
// (detail::precompiled_reduce, gpuprim/detail/reduce/precompiled.hpp); from a .cu file, include
// gpuprim/cuda/reduce.cuh to use any type and operator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <stdexcept>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/detail/reduce/entry.hpp"
#include "gpuprim/host/reduce.hpp"

namespace gpuprim {

// ---- reduce -------------------------------------------------------------

template <host_range R, class T, class Op = plus>
T reduce(host_backend backend, const R& in, T init, Op op = {}) {
  const auto s = detail::host_span(in);
  return host_impl::transform_reduce(backend, s.data(), s.size(), init, op,
                                       detail::unary_fetch<identity>{});
}

template <device_range R, class T, class Op = plus>
T reduce(cuda_backend backend, const R& in, T init, Op op = {}) {
  device_span<const device_range_value_t<const R>> s = as_device_span(in);
  return detail::cuda_reduce_to_host(backend, s, init, op, detail::unary_fetch<identity>{});
}

// The sum, starting from a value-initialized element (like std::reduce).
template <class Backend, class R>
auto reduce(Backend backend, const R& in) {
  if constexpr (device_range<R>) {
    return reduce(backend, in, device_range_value_t<const R>{}, plus{});
  } else {
    return reduce(backend, in, std::ranges::range_value_t<R>{}, plus{});
  }
}

// Asynchronous form: enqueues the reduction on the backend's stream and
// writes the result to out[0] (device memory). Nothing is synchronized.
template <device_range R, class T, class Op = plus>
void reduce_into(cuda_backend backend, const R& in, device_span<T> out, T init, Op op = {}) {
  if (out.size() < 1) {
    throw std::invalid_argument("gpuprim::reduce_into: the output span is empty");
  }
  device_span<const device_range_value_t<const R>> s = as_device_span(in);
  detail::cuda_reduce_checked(s, out.data(), init, op, detail::unary_fetch<identity>{},
                              backend.stream);
}

// ---- transform_reduce ---------------------------------------------------

template <host_range R, class T, class ReduceOp, class Transform>
T transform_reduce(host_backend backend, const R& in, T init, ReduceOp reduce_op,
                   Transform transform) {
  const auto s = detail::host_span(in);
  return host_impl::transform_reduce(backend, s.data(), s.size(), init, reduce_op,
                                       detail::unary_fetch<Transform>{transform});
}

template <device_range R, class T, class ReduceOp, class Transform>
T transform_reduce(cuda_backend backend, const R& in, T init, ReduceOp reduce_op,
                   Transform transform) {
  device_span<const device_range_value_t<const R>> s = as_device_span(in);
  return detail::cuda_reduce_to_host(backend, s, init, reduce_op,
                                     detail::unary_fetch<Transform>{transform});
}

// ---- min_element / max_element -----------------------------------------

namespace detail {
template <class Select, class Backend, class R>
auto extreme_element(Backend backend, const R& in) {
  if constexpr (device_range<R>) {
    using V = device_range_value_t<const R>;
    device_span<const V> s = as_device_span(in);
    if (s.empty()) return value_index<V>{V{}, 0};
    return cuda_reduce_to_host(backend, s, value_index<V>{V{}, value_index<V>::none}, Select{},
                               value_index_fetch{});
  } else {
    using V = std::ranges::range_value_t<R>;
    const auto s = host_span(in);
    if (s.empty()) return value_index<V>{V{}, 0};
    const value_index<V> init{V{}, value_index<V>::none};
    return host_impl::transform_reduce(backend, s.data(), s.size(), init, Select{},
                                         value_index_fetch{});
  }
}
}  // namespace detail

// The first smallest / largest element and its index; `rule` says what a
// NaN does (propagate: the first NaN is returned; skip: NaNs are passed
// over unless every value is NaN).
template <class Backend, class R>
auto min_element(Backend backend, const R& in, nan_rule rule = nan_rule::propagate) {
  return rule == nan_rule::skip ? detail::extreme_element<detail::select_min_number>(backend, in)
                                : detail::extreme_element<detail::select_min>(backend, in);
}

template <class Backend, class R>
auto max_element(Backend backend, const R& in, nan_rule rule = nan_rule::propagate) {
  return rule == nan_rule::skip ? detail::extreme_element<detail::select_max_number>(backend, in)
                                : detail::extreme_element<detail::select_max>(backend, in);
}

}  // namespace gpuprim
