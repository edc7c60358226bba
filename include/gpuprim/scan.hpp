// Scan family: inclusive_scan, exclusive_scan, transform_inclusive_scan.
//
//   gp::inclusive_scan(gp::cuda, d_in, d_out);                  // prefix sums
//   gp::exclusive_scan(gp::host, in, out, 0, gp::plus{});
//   gp::inclusive_scan(gp::cuda.on(s), d_x, d_x, gp::maximum{}); // in place
//
// Semantics, for every backend:
//  - inclusive: out[i] = in[0] op ... op in[i];
//    exclusive: out[0] = init, out[i] = init op in[0] op ... op in[i-1].
//  - `op` must be associative; it need not be commutative (operands are
//    combined in input order) and results are deterministic run to run.
//  - Elements convert to the accumulator type (the output's value type, or
//    init's type for exclusive_scan) before they are combined.
//  - NaN follows the operator, as in reductions: gp::minimum / maximum
//    propagate it (numpy.minimum.accumulate: every output from the first
//    NaN on is NaN), gp::minimum_number / maximum_number skip it
//    (numpy.fmin.accumulate: NaN only while every element so far is NaN).
//  - `out` must have in's size. It may be the same memory as `in` (in place);
//    any other overlap is rejected. Errors are thrown before anything is
//    written.
// The GPU backend is a single pass over the data (decoupled look-back); from
// plain C++ it is available for the precompiled combinations
// (detail::precompiled_scan); from a .cu file include gpuprim/cuda/scan.cuh
// for any type and operator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/host/scan.hpp"
#include "gpuprim/reduce.hpp"

namespace gpuprim {

enum class scan_kind { inclusive, exclusive };

namespace detail {

#if GPUPRIM_HAS_CUDA
// Defined in gpuprim/cuda/device/device_scan.cuh. Enqueues the scan of
// in[0, n) into out[0, n) on `stream` (init is used by exclusive scans).
template <class In, class Out, class T, class Op, class Fetch>
void cuda_scan_into(const In* in, Out* out, std::size_t n, scan_kind kind, T init, Op op,
                    Fetch fetch, stream_t stream);
#else
template <class In, class Out, class T, class Op, class Fetch>
void cuda_scan_into(const In*, Out*, std::size_t, scan_kind, T, Op, Fetch, stream_t) {
  no_cuda_backend("scan");
}
#endif

// The instantiations compiled into the library (src/scan/*.cu): sums and
// NaN-propagating minima / maxima of the arithmetic types, and the
// NaN-skipping minima / maxima (minimum_number, maximum_number) of floats.
template <class In, class Out, class T, class Op, class Fetch>
inline constexpr bool precompiled_scan =
    one_of<In, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>&&
        std::is_same_v<In, Out>&& std::is_same_v<In, T>&&
            std::is_same_v<Fetch, unary_fetch<identity>> &&
    (one_of<Op, plus, minimum, maximum> ||
     (one_of<In, float, double> && one_of<Op, minimum_number, maximum_number>));

template <class In, class Out, class T, class Op, class Fetch>
void cuda_scan_checked(device_span<const In> in, device_span<Out> out, scan_kind kind, T init,
                       Op op, Fetch fetch, stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_scan<In, Out, T, Op, Fetch>,
                "gpuprim: this scan's type/operator combination is not precompiled into the "
                "library; call it from a .cu file that includes gpuprim/cuda/scan.cuh");
#endif
  cuda_scan_into(in.data(), out.data(), in.size(), kind, init, op, fetch, stream);
}

// Same size, and either the same memory or disjoint memory.
inline void check_scan_ranges(const char* algorithm, const void* in, std::size_t in_bytes,
                              std::size_t in_size, const void* out, std::size_t out_bytes,
                              std::size_t out_size) {
  if (in_size != out_size) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": input has " +
                                std::to_string(in_size) + " elements, output " +
                                std::to_string(out_size));
  }
  const auto a = reinterpret_cast<std::uintptr_t>(in);
  const auto b = reinterpret_cast<std::uintptr_t>(out);
  const bool overlap = a < b + out_bytes && b < a + in_bytes;
  if (overlap && a != b) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm +
                                ": input and output overlap without being the same memory");
  }
}

template <class R>
concept host_output_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>>;

template <bool Exclusive, class R, class O, class T, class Op, class Fetch>
void host_scan(host_backend backend, const R& in, O&& out, std::optional<T> init, Op op,
               Fetch fetch, const char* algorithm) {
  const auto s = host_span(in);
  auto* o = std::ranges::data(out);
  const std::size_t out_size = std::ranges::size(out);
  check_scan_ranges(algorithm, s.data(), s.size_bytes(), s.size(), o, out_size * sizeof(*o),
                    out_size);
  host_detail::scan<Exclusive>(backend, s.data(), o, s.size(), init, op, fetch);
}

template <class R, class O, class T, class Op, class Fetch>
void device_scan(cuda_backend backend, const R& in, O& out, scan_kind kind, T init, Op op,
                 Fetch fetch, const char* algorithm) {
  device_span<const device_range_value_t<const R>> s = as_device_span(in);
  auto o = writable_device_span(out);
  check_scan_ranges(algorithm, s.data(), s.size_bytes(), s.size(), o.data(), o.size_bytes(),
                    o.size());
  cuda_scan_checked(s, o, kind, init, op, fetch, backend.stream);
}

}  // namespace detail

// ---- inclusive_scan -----------------------------------------------------

template <host_range R, class O, class Op = plus>
requires detail::host_output_range<O>
void inclusive_scan(host_backend backend, const R& in, O&& out, Op op = {}) {
  using T = std::ranges::range_value_t<O>;
  detail::host_scan<false>(backend, in, out, std::optional<T>{}, op,
                           detail::unary_fetch<identity>{}, "inclusive_scan");
}

template <device_range R, device_range O, class Op = plus>
void inclusive_scan(cuda_backend backend, const R& in, O&& out, Op op = {}) {
  using T = device_range_value_t<O>;
  detail::device_scan(backend, in, out, scan_kind::inclusive, T{}, op,
                      detail::unary_fetch<identity>{}, "inclusive_scan");
}

// ---- exclusive_scan -----------------------------------------------------

template <host_range R, class O, class T, class Op = plus>
requires detail::host_output_range<O>
void exclusive_scan(host_backend backend, const R& in, O&& out, T init, Op op = {}) {
  detail::host_scan<true>(backend, in, out, std::optional<T>{init}, op,
                          detail::unary_fetch<identity>{}, "exclusive_scan");
}

template <device_range R, device_range O, class T, class Op = plus>
void exclusive_scan(cuda_backend backend, const R& in, O&& out, T init, Op op = {}) {
  detail::device_scan(backend, in, out, scan_kind::exclusive, init, op,
                      detail::unary_fetch<identity>{}, "exclusive_scan");
}

// ---- transform_inclusive_scan -------------------------------------------

template <host_range R, class O, class Op, class Transform>
requires detail::host_output_range<O>
void transform_inclusive_scan(host_backend backend, const R& in, O&& out, Op op,
                              Transform transform) {
  using T = std::ranges::range_value_t<O>;
  detail::host_scan<false>(backend, in, out, std::optional<T>{}, op,
                           detail::unary_fetch<Transform>{transform}, "transform_inclusive_scan");
}

template <device_range R, device_range O, class Op, class Transform>
void transform_inclusive_scan(cuda_backend backend, const R& in, O&& out, Op op,
                              Transform transform) {
  using T = device_range_value_t<O>;
  detail::device_scan(backend, in, out, scan_kind::inclusive, T{}, op,
                      detail::unary_fetch<Transform>{transform}, "transform_inclusive_scan");
}

}  // namespace gpuprim
