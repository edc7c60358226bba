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
// (detail::precompiled_reduce below); from a .cu file, include
// gpuprim/cuda/reduce.cuh to use any type and operator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/host/reduce.hpp"

namespace gpuprim {

template <class R>
concept host_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R>;

namespace detail {

// Defined in gpuprim/cuda/device/device_reduce.cuh. Enqueues the reduction
// of in[0, n) on `stream`; *out (device memory) receives the result.
#if GPUPRIM_HAS_CUDA
template <class In, class T, class Op, class Fetch>
void cuda_reduce_into(const In* in, std::size_t n, T* out, T init, Op op, Fetch fetch,
                      stream_t stream);
#else
template <class In, class T, class Op, class Fetch>
void cuda_reduce_into(const In*, std::size_t, T*, T, Op, Fetch, stream_t) {
  no_cuda_backend("reduce");
}
#endif

template <class T, class... U>
inline constexpr bool one_of = (std::is_same_v<T, U> || ...);

// For element types without NaN, the NaN-skipping operators are the plain
// ones; the library calls (and precompiles) the plain ones then.
template <class In, class Op>
struct without_needless_nan_rule {
  using type = Op;
};
template <class In, class Op>
requires(!std::is_floating_point_v<In>) struct without_needless_nan_rule<In, Op> {
  using type = std::conditional_t<
      std::is_same_v<Op, minimum_number>, minimum,
      std::conditional_t<
          std::is_same_v<Op, maximum_number>, maximum,
          std::conditional_t<
              std::is_same_v<Op, select_min_number>, select_min,
              std::conditional_t<std::is_same_v<Op, select_max_number>, select_max, Op>>>>;
};
template <class In, class Op>
using without_needless_nan_rule_t = typename without_needless_nan_rule<In, Op>::type;

// The instantiations compiled into the library (src/reduce/*.cu).
template <class In, class T, class Op, class Fetch>
inline constexpr bool precompiled_reduce = [] {
  constexpr bool arithmetic =
      one_of<In, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
  constexpr bool is_signed = one_of<In, std::int32_t, std::int64_t, float, double>;
  constexpr bool is_float = one_of<In, float, double>;
  if constexpr (std::is_same_v<Fetch, unary_fetch<identity>>) {
    if constexpr (std::is_same_v<In, T>) {
      return ((arithmetic ||
               std::is_same_v<In, std::uint8_t>)&&one_of<Op, plus, minimum, maximum>) ||
             (is_float && one_of<Op, minimum_number, maximum_number>);
    } else {
      return std::is_same_v<Op, plus> &&
             ((std::is_same_v<In, std::uint8_t> && std::is_same_v<T, std::uint64_t>) ||
              (std::is_same_v<In, float> && std::is_same_v<T, double>));
    }
  } else if constexpr (one_of<Fetch, unary_fetch<square>, unary_fetch<absolute>>) {
    return is_signed && std::is_same_v<In, T> && std::is_same_v<Op, plus>;
  } else if constexpr (std::is_same_v<Fetch, unary_fetch<nan_to_zero>>) {
    // numpy.nansum: float32 accumulated in double, like the plain float sum.
    return is_float && std::is_same_v<T, double> && std::is_same_v<Op, plus>;
  } else if constexpr (std::is_same_v<Fetch, value_index_fetch>) {
    return arithmetic && std::is_same_v<T, value_index<In>> &&
           (one_of<Op, select_min, select_max> ||
            (is_float && one_of<Op, select_min_number, select_max_number>));
  } else {
    return false;
  }
}();

template <class In, class T, class Op, class Fetch>
void cuda_reduce_checked(device_span<const In> in, T* out, T init, Op op, Fetch fetch,
                         stream_t stream) {
  using plain_op = without_needless_nan_rule_t<In, Op>;
  if constexpr (!std::is_same_v<plain_op, Op>) {
    cuda_reduce_checked(in, out, init, plain_op{}, fetch, stream);
  } else {
#if !defined(__CUDACC__)
    static_assert(precompiled_reduce<In, T, Op, Fetch>,
                  "gpuprim: this type/operator combination is not precompiled into the library; "
                  "call it from a .cu file that includes gpuprim/cuda/reduce.cuh");
#endif
    cuda_reduce_into(in.data(), in.size(), out, init, op, fetch, stream);
  }
}

// Runs a device reduction and brings its one-element result to the host.
template <class In, class T, class Op, class Fetch>
T cuda_reduce_to_host(cuda_backend backend, device_span<const In> in, T init, Op op, Fetch fetch) {
  const scratch_buffer out(sizeof(T), backend.stream);
  T result;
  cuda_reduce_checked(in, out.get<T>(), init, op, fetch, backend.stream);
  copy_to_host(&result, out.get(), sizeof(T), backend.stream);
  synchronize(backend.stream);
  return result;
}

template <class R>
auto host_span(const R& r) {
  return std::span<const std::ranges::range_value_t<R>>(std::ranges::data(r), std::ranges::size(r));
}

// The span of a host output (or data sorted in place); const data is a
// compile-time error.
template <class R>
auto writable_host_span(R& r) {
  using T = std::remove_reference_t<decltype(*std::ranges::data(r))>;
  static_assert(!std::is_const_v<T>,
                "gpuprim: an output (or data sorted in place) must be writable");
  return std::span<T>(std::ranges::data(r), std::ranges::size(r));
}

}  // namespace detail

// ---- reduce -------------------------------------------------------------

template <host_range R, class T, class Op = plus>
T reduce(host_backend backend, const R& in, T init, Op op = {}) {
  const auto s = detail::host_span(in);
  return host_detail::transform_reduce(backend, s.data(), s.size(), init, op,
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
  return host_detail::transform_reduce(backend, s.data(), s.size(), init, reduce_op,
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
    return host_detail::transform_reduce(backend, s.data(), s.size(), init, Select{},
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
