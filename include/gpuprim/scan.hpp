// Scan family: inclusive_scan, exclusive_scan, transform_inclusive_scan.
//
//   gp::inclusive_scan(gp::cuda, d_in, d_out);                  // prefix sums
//   gp::exclusive_scan(gp::host, in, out, 0, gp::plus{});
//   gp::inclusive_scan(gp::cuda.on(s), d_x, d_x, gp::maximum{}); // in place
//
// Semantics, for every backend:
//  - inclusive: out[i] = in[0] op ... op in[i];
//    exclusive: out[0] = init, out[i] = init op in[0] op ... op in[i-1].
//    Without init, an exclusive scan starts from op's identity on the
//    output's value type (gp::identity_of: 0 for plus, +inf / -inf for
//    minimum / maximum, NaN for the float minimum_number / maximum_number),
//    so that out[i] is the inclusive scan's out[i-1].
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
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/detail/scan/scan.hpp"
#include "gpuprim/host/scan.hpp"

namespace gpuprim {

namespace detail {

// The host step of every scan call: the checks, then the host scan.
template <bool Exclusive, class R, class O, class T, class Op, class Fetch>
void host_scan(host_backend backend, const R& in, O&& out, std::optional<T> init, Op op,
               Fetch fetch, const char* algorithm) {
  const auto s = host_span(in);
  auto* o = std::ranges::data(out);
  const std::size_t out_size = std::ranges::size(out);
  check_scan_ranges(algorithm, s.data(), s.size_bytes(), s.size(), o, out_size * sizeof(*o),
                    out_size);
  host_impl::scan<Exclusive>(backend, s.data(), o, s.size(), init, op, fetch);
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

// (An init that is itself an operator with an identity picks the form
// without init below.)
template <host_range R, class O, class T, class Op = plus>
requires detail::host_output_range<O> &&
    (!has_identity<std::ranges::range_value_t<O>, T>)void exclusive_scan(host_backend backend,
                                                                         const R& in, O&& out,
                                                                         T init, Op op = {}) {
  detail::host_scan<true>(backend, in, out, std::optional<T>{init}, op,
                          detail::unary_fetch<identity>{}, "exclusive_scan");
}

template <device_range R, device_range O, class T, class Op = plus>
requires(!has_identity<device_range_value_t<O>, T>) void exclusive_scan(cuda_backend backend,
                                                                        const R& in, O&& out,
                                                                        T init, Op op = {}) {
  detail::device_scan(backend, in, out, scan_kind::exclusive, init, op,
                      detail::unary_fetch<identity>{}, "exclusive_scan");
}

// From op's identity: gp::exclusive_scan(gp::host, in, out, gp::minimum{}).
template <host_range R, class O, class Op>
requires detail::host_output_range<O> && has_identity<std::ranges::range_value_t<O>, Op>
void exclusive_scan(host_backend backend, const R& in, O&& out, Op op) {
  using T = std::ranges::range_value_t<O>;
  detail::host_scan<true>(backend, in, out, std::optional<T>{identity_of<T>(op)}, op,
                          detail::unary_fetch<identity>{}, "exclusive_scan");
}

template <device_range R, device_range O, class Op>
requires has_identity<device_range_value_t<O>, Op>
void exclusive_scan(cuda_backend backend, const R& in, O&& out, Op op) {
  using T = device_range_value_t<O>;
  detail::device_scan(backend, in, out, scan_kind::exclusive, identity_of<T>(op), op,
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
