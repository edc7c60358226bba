// Segmented family: reductions and scans of many independent segments of
// one array. Reductions take segments as offsets; scans take head flags
// (one byte per element, nonzero starts a segment) or offsets.
//
//   // offsets: num_segments + 1 non-decreasing positions in `values`;
//   // segment s is values[offsets[s], offsets[s + 1]).
//   gp::segmented_reduce(gp::cuda, d_values, d_offsets, d_sums, 0.0f);
//   gp::segmented_reduce(gp::host, values, offsets, maxima, -INFINITY, gp::maximum{});
//
// Offsets: std::uint64_t or std::int64_t (what 64-bit sizes and what PyTorch
// and NumPy hand over). The host backend takes any integral type; from a .cu
// file (gpuprim/cuda/segmented.cuh) the GPU backend does too.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/detail/segmented/segmented.hpp"
#include "gpuprim/host/segmented_reduce.hpp"
#include "gpuprim/host/segmented_scan.hpp"
#include "gpuprim/scan.hpp"

namespace gpuprim {

namespace detail {

// The host step of the segmented scans: the checks, then the host scan.
template <bool Exclusive, class V, class Flag, class O, class T, class Op>
void host_segmented_scan(host_backend backend, std::span<const V> v, const Flag* flags, O& out,
                         T init, Op op, const char* algorithm) {
  T* o = std::ranges::data(out);
  check_scan_ranges(algorithm, v.data(), v.size_bytes(), v.size(), o,
                    std::ranges::size(out) * sizeof(T), std::ranges::size(out));
  host_impl::segmented_scan<Exclusive>(backend, v.data(), flags, o, v.size(), init, op);
}

}  // namespace detail

// ---- segmented_reduce ---------------------------------------------------
//
// out[s] = init op v[b] op v[b + 1] op ... op v[e - 1] with b = offsets[s],
// e = offsets[s + 1]; an empty segment gives init. As in gp::reduce, `op`
// must be associative, need not be commutative, and the grouping of terms is
// fixed: floating-point results are the same from run to run. Elements are
// converted to T, the type of `init` and of the output.
//
// Checked on every backend before anything is written (std::invalid_argument,
// output untouched): offsets is non-empty and out.size() == offsets.size() - 1.
// The host backend also checks that offsets are non-decreasing, start at or
// after 0 and end at or before values.size(). The GPU backend does not read
// the offsets on the host (that would cost a copy and a synchronization per
// call): offsets that break those rules read out of bounds.
//
// The GPU form enqueues its kernels on the backend's stream and returns
// without synchronizing, like gp::reduce_into.

template <host_range V, host_range O, class Out, class T, class Op = plus>
requires detail::host_output_range<Out> && std::integral<std::ranges::range_value_t<O>>
void segmented_reduce(host_backend backend, const V& values, const O& offsets, Out&& out, T init,
                      Op op = {}) {
  static_assert(std::is_same_v<std::ranges::range_value_t<Out>, T>,
                "gpuprim::segmented_reduce: the output's elements must have the type of init");
  const auto v = detail::host_span(values);
  const auto o = detail::host_span(offsets);
  const std::span<T> result(std::ranges::data(out), std::ranges::size(out));
  detail::check_segmented_sizes(o.size(), result.size(), "segmented_reduce");
  detail::check_host_offsets(o, v.size(), "segmented_reduce");
  host_impl::segmented_reduce(backend, v.data(), o.data(), result.size(), result.data(), init,
                                op);
}

// `out` is a device_span<T> or a device_vector<T> (T is the type of init).
template <device_range V, device_range O, class T, class Op = plus>
void segmented_reduce(cuda_backend backend, const V& values, const O& offsets,
                      std::type_identity_t<device_span<T>> out, T init, Op op = {}) {
  using In = device_range_value_t<const V>;
  using Offset = device_range_value_t<const O>;
  static_assert(std::is_integral_v<Offset>, "gpuprim::segmented_reduce: offsets are integers");
#if !defined(__CUDACC__)
  static_assert(detail::precompiled_segmented_reduce<In, T, Offset, Op>,
                "gpuprim: this type/offset/operator combination of segmented_reduce is not "
                "precompiled into the library; call it from a .cu file that includes "
                "gpuprim/cuda/segmented.cuh");
#endif
  const device_span<const In> v = as_device_span(values);
  const device_span<const Offset> o = as_device_span(offsets);
  detail::check_segmented_sizes(o.size(), out.size(), "segmented_reduce");
  detail::on_cuda("segmented_reduce", [&] {
    detail::cuda_segmented_reduce_into(v.data(), v.size(), o.data(), out.size(), out.data(), init,
                                       op, backend.stream);
  });
}

// ---- segmented scans -----------------------------------------------------
//
//   gp::inclusive_segmented_scan(gp::cuda, d_values, d_head_flags, d_out);
//   gp::exclusive_segmented_scan(gp::host, values, offsets, out, 0.0f);
//
// A segmented scan restarts at every segment head: inclusive,
// out[i] = x[h] op ... op x[i]; exclusive, out[i] = init op x[h] op ... op
// x[i-1] (so out[h] = init), where h is the head of i's segment.
// Segments come as
//  - head flags: a std::uint8_t (or bool) per element, nonzero where a
//    segment starts; element 0 always starts one, flagged or not;
//  - offsets: num_segments + 1 non-decreasing positions with offsets[0] == 0
//    and offsets.back() == size (the segments partition the array; empty
//    segments are allowed). They are turned into head flags first. The
//    host backend checks those rules; the GPU backend checks only that
//    offsets is non-empty (reading the offsets back would cost a copy and a
//    synchronization per call): offsets past the end mark no head, and
//    offsets that break the rules give the scan of the heads they mark.
// `op` must be associative; operands keep input order. It runs as one scan
// over (value, head) pairs with the segmented operator
// (core/segmented_operator.hpp), on the same single pass as gp::inclusive_scan.
// From plain C++ the GPU backend is precompiled for int32/uint32/int64/
// uint64/float/double values with gp::plus and uint8 flags; other
// combinations need a .cu file that includes gpuprim/cuda/segmented.cuh.

template <class F>
concept head_flag = std::is_same_v<F, std::uint8_t> || std::is_same_v<F, bool>;

// Head flags, host.
template <host_range V, host_range F, class O, class Op = plus>
requires detail::host_output_range<O> && head_flag<std::ranges::range_value_t<F>>
void inclusive_segmented_scan(host_backend backend, const V& values, const F& head_flags, O&& out,
                              Op op = {}) {
  using T = std::ranges::range_value_t<O>;
  const auto v = detail::host_span(values);
  const auto f = detail::host_span(head_flags);
  detail::check_head_flag_count("inclusive_segmented_scan", f.size(), v.size());
  detail::host_segmented_scan<false>(backend, v, f.data(), out, T{}, op,
                                     "inclusive_segmented_scan");
}

template <host_range V, host_range F, class O, class T, class Op = plus>
requires detail::host_output_range<O> && head_flag<std::ranges::range_value_t<F>>
void exclusive_segmented_scan(host_backend backend, const V& values, const F& head_flags, O&& out,
                              T init, Op op = {}) {
  const auto v = detail::host_span(values);
  const auto f = detail::host_span(head_flags);
  detail::check_head_flag_count("exclusive_segmented_scan", f.size(), v.size());
  detail::host_segmented_scan<true>(backend, v, f.data(), out, init, op,
                                    "exclusive_segmented_scan");
}

// Offsets, host.
template <host_range V, host_range S, class O, class Op = plus>
requires detail::host_output_range<O> &&(!head_flag<std::ranges::range_value_t<S>>)&&std::integral<
    std::ranges::range_value_t<S>> void inclusive_segmented_scan(host_backend backend,
                                                                 const V& values, const S& offsets,
                                                                 O&& out, Op op = {}) {
  using T = std::ranges::range_value_t<O>;
  const auto v = detail::host_span(values);
  const auto flags =
      detail::host_head_flags(detail::host_span(offsets), v.size(), "inclusive_segmented_scan");
  detail::host_segmented_scan<false>(backend, v, flags.data(), out, T{}, op,
                                     "inclusive_segmented_scan");
}

template <host_range V, host_range S, class O, class T, class Op = plus>
requires detail::host_output_range<O> &&(!head_flag<std::ranges::range_value_t<S>>)&&std::integral<
    std::ranges::range_value_t<S>> void exclusive_segmented_scan(host_backend backend,
                                                                 const V& values, const S& offsets,
                                                                 O&& out, T init, Op op = {}) {
  const auto v = detail::host_span(values);
  const auto flags =
      detail::host_head_flags(detail::host_span(offsets), v.size(), "exclusive_segmented_scan");
  detail::host_segmented_scan<true>(backend, v, flags.data(), out, init, op,
                                    "exclusive_segmented_scan");
}

// Head flags or offsets, GPU. `out` is a device_span<T> or device_vector<T>.
template <device_range V, device_range S, class O, class Op = plus>
void inclusive_segmented_scan(cuda_backend backend, const V& values, const S& segments, O&& out,
                              Op op = {}) {
  using In = device_range_value_t<const V>;
  using Seg = device_range_value_t<const S>;
  auto o = as_device_span(out);
  using T = typename decltype(o)::value_type;
  const device_span<const In> v = as_device_span(values);
  const device_span<const Seg> s = as_device_span(segments);
  if constexpr (head_flag<Seg>) {
    detail::check_head_flag_count("inclusive_segmented_scan", s.size(), v.size());
    detail::cuda_segmented_scan<false>(backend, v, s.data(), o, T{}, op,
                                       "inclusive_segmented_scan");
  } else {
    static_assert(std::is_integral_v<Seg>, "gpuprim: segments are head flags or integer offsets");
    detail::with_device_head_flags(backend, s, v.size(), "inclusive_segmented_scan",
                                   [&](const std::uint8_t* flags) {
                                     detail::cuda_segmented_scan<false>(
                                         backend, v, flags, o, T{}, op, "inclusive_segmented_scan");
                                   });
  }
}

template <device_range V, device_range S, class O, class T, class Op = plus>
void exclusive_segmented_scan(cuda_backend backend, const V& values, const S& segments, O&& out,
                              T init, Op op = {}) {
  using In = device_range_value_t<const V>;
  using Seg = device_range_value_t<const S>;
  auto o = as_device_span(out);
  const device_span<const In> v = as_device_span(values);
  const device_span<const Seg> s = as_device_span(segments);
  if constexpr (head_flag<Seg>) {
    detail::check_head_flag_count("exclusive_segmented_scan", s.size(), v.size());
    detail::cuda_segmented_scan<true>(backend, v, s.data(), o, init, op,
                                      "exclusive_segmented_scan");
  } else {
    static_assert(std::is_integral_v<Seg>, "gpuprim: segments are head flags or integer offsets");
    detail::with_device_head_flags(
        backend, s, v.size(), "exclusive_segmented_scan", [&](const std::uint8_t* flags) {
          detail::cuda_segmented_scan<true>(backend, v, flags, o, init, op,
                                            "exclusive_segmented_scan");
        });
  }
}

}  // namespace gpuprim
