// Vectorized binary search: where each of many queries goes in one sorted
// array (thrust::lower_bound / upper_bound of a range, numpy.searchsorted).
//
//   gp::lower_bound(gp::host, sorted, queries, out);             // side='left'
//   gp::upper_bound(gp::host, sorted, queries, out, gp::greater{});
//   std::size_t bad = gp::first_unsorted(gp::host, table);      // n when sorted
//
// Semantics:
//  - `sorted` is ordered by `comp` (a strict weak order, "a goes before b";
//    default gp::less; gp::nan_last_less is NumPy's order, NaN last).
//    lower_bound writes, for each query q, the number of elements e with
//    comp(e, q) (the first position q could be inserted at keeping the
//    order); upper_bound the number of elements with !comp(q, e) (the
//    last such position). On an array that is not sorted the results are
//    some positions, no more; first_unsorted is the check.
//  - The query type may differ from the element type when comp takes both.
//  - out has one integer per query (any integer type that holds n: a
//    narrower one is refused); queries and out may not overlap.
//  - Host backend: OpenMP over the queries, a branch-free search each
//    (gpuprim/host/search.hpp). GPU backend: one thread per query, the same
//    branch-free search (gpuprim/cuda/device/device_search.cuh), enqueued
//    on the backend's stream, nothing synchronized. From plain C++ it takes
//    the precompiled instances (gpuprim/detail/order/precompiled.hpp: the
//    arithmetic types, queries of the same type, 64- or 32-bit indices,
//    gp::less or gp::nan_last_less); from a .cu file include
//    gpuprim/cuda/search.cuh for any types and __device__ comparator.
#pragma once

#include <cstddef>
#include <ranges>
#include <tuple>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/detail/order/checks.hpp"
#include "gpuprim/detail/order/entry.hpp"
#include "gpuprim/host/search.hpp"
#include "gpuprim/order_types.hpp"

namespace gpuprim {

namespace detail {

// The checks both backends make: one output per query, an index type that
// holds the table's length, and an output apart from both inputs.
template <class I, class S, class Q, class O>
void search_checks(const char* algorithm, const S& s, const Q& q, const O& o) {
  check_same_length(algorithm, "the queries", q.size(), "the output", o.size());
  order_index_fits<I>(algorithm, s.size());
  check_disjoint(algorithm, "queries", q.data(), q.size_bytes(), "output", o.data(),
                 o.size_bytes());
  check_disjoint(algorithm, "sorted array", s.data(), s.size_bytes(), "output", o.data(),
                 o.size_bytes());
}

// One search call on either backend: the spans of its memory space, the
// checks, then the backend's search.
template <bool upper, class Backend, class RS, class RQ, class O, class Comp>
void search_call(Backend backend, const RS& sorted, const RQ& queries, O& out, Comp comp) {
  constexpr bool on_host = std::is_same_v<Backend, host_backend>;
  static_assert(on_host || std::is_same_v<Backend, cuda_backend>,
                "gpuprim::lower_bound / upper_bound: the backend is gp::host or gp::cuda");
  const char* algorithm = upper ? "upper_bound" : "lower_bound";
  const auto [s, q, o] = [&] {
    if constexpr (on_host) {
      return std::tuple(host_span(sorted), host_span(queries), writable_host_span(out));
    } else {
      return std::tuple(as_device_span(sorted), as_device_span(queries), writable_device_span(out));
    }
  }();
  using I = std::remove_cvref_t<decltype(*o.data())>;
  search_checks<I>(algorithm, s, q, o);
  if constexpr (on_host) {
    host_impl::search<upper>(backend, s.data(), s.size(), q.data(), q.size(), o.data(), comp);
  } else {
    using T = std::remove_cvref_t<decltype(*s.data())>;
    using Q = std::remove_cvref_t<decltype(*q.data())>;
    cuda_search_checked<upper, T, Q, I>(s.data(), s.size(), q.data(), q.size(), o.data(), comp,
                                        backend.stream);
  }
}

}  // namespace detail

template <class Backend, class RS, class RQ, class O, class Comp = less>
void lower_bound(Backend backend, const RS& sorted, const RQ& queries, O&& out, Comp comp = {}) {
  detail::search_call<false>(backend, sorted, queries, out, comp);
}

template <class Backend, class RS, class RQ, class O, class Comp = less>
void upper_bound(Backend backend, const RS& sorted, const RQ& queries, O&& out, Comp comp = {}) {
  detail::search_call<true>(backend, sorted, queries, out, comp);
}

// The first i with comp(x[i + 1], x[i]), or x's size when x is sorted by comp.
template <class R, class Comp = less>
std::size_t first_unsorted(host_backend backend, const R& x, Comp comp = {}) {
  const auto s = detail::host_span(x);
  return host_impl::first_unsorted(backend, s.data(), s.size(), comp);
}

}  // namespace gpuprim
