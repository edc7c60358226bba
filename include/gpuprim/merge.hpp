// Merge and merge sort: stable, by any comparator, of any trivially
// copyable element type up to 64 bytes (thrust::merge / merge_by_key,
// cub::DeviceMerge, cub::DeviceMergeSort).
//
//   gp::merge(gp::host, a, b, out);                               // out.size() == a + b
//   gp::merge_by_key(gp::host, ka, va, kb, vb, keys_out, values_out, gp::greater{});
//   gp::merge_sort(gp::host, x, [](const item& p, const item& q) { return p.score < q.score; });
//   gp::merge_sort_by_key(gp::host, keys, values);
//
// Semantics, for every backend:
//  - comp is a strict weak order, "a goes before b" (default gp::less;
//    gp::nan_last_less is NumPy's order with NaN last).
//  - merge takes two arrays sorted by comp and writes their merge: stable,
//    equal elements keep their order within a and b, and a's go first.
//    merge_by_key moves each key's value with it.
//  - merge_sort sorts in place, stably (equal elements keep their input
//    order); merge_sort_by_key sorts the keys and moves the values with them.
//  - Element types: trivially copyable, at most 64 bytes (compile-time
//    check). Lengths that must match are checked; inputs and outputs may
//    not overlap (std::invalid_argument, nothing written).
//  - Host backend: OpenMP, merge-path splits (gpuprim/host/merge.hpp); the
//    sorts need one buffer the size of the data (two with values).
//  - GPU backend (gpuprim/cuda/device/device_merge.cuh): merge-path tiles in
//    shared memory; merge sort: a block sort of tiles, then merge passes
//    ping-ponging between the data and one scratch buffer (and one of the
//    values'). Enqueued on the backend's stream. Plain C++ takes the
//    precompiled instances (the arithmetic types by gp::less (merge) or
//    gp::less / gp::greater (merge_sort), keys only or with int64 values);
//    a .cu file including gpuprim/cuda/merge.cuh any types and comparator.
#pragma once

#include <cstddef>
#include <ranges>
#include <type_traits>
#include <utility>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/detail/order/checks.hpp"
#include "gpuprim/detail/order/entry.hpp"
#include "gpuprim/host/merge.hpp"
#include "gpuprim/order_types.hpp"

namespace gpuprim {

namespace detail {

template <class T>
constexpr void order_check_element() {
  static_assert(std::is_trivially_copyable_v<T>,
                "gpuprim::merge / merge_sort: the element type must be trivially copyable");
  static_assert(sizeof(T) <= 64, "gpuprim::merge / merge_sort: elements of at most 64 bytes");
}

template <class S>
std::size_t bytes_of(const S& s) {
  return s.size() * sizeof(typename S::element_type);
}

// The element type of a host or device span, without const.
template <class S>
using order_element_t = std::remove_cvref_t<decltype(*std::declval<const S&>().data())>;

// The checks of merge on both backends: one element type, the output's
// length, the output apart from the inputs.
template <class SA, class SB, class SO>
void merge_checks(const SA& sa, const SB& sb, const SO& so) {
  using T = order_element_t<SA>;
  static_assert(std::is_same_v<T, order_element_t<SB>> && std::is_same_v<T, order_element_t<SO>>,
                "gpuprim::merge: a, b and out must have one element type");
  order_check_element<T>();
  const char* algorithm = "merge";
  check_same_length(algorithm, "the output", so.size(), "a and b together", sa.size() + sb.size());
  check_disjoint(algorithm, "a", sa.data(), bytes_of(sa), "output", so.data(), bytes_of(so));
  check_disjoint(algorithm, "b", sb.data(), bytes_of(sb), "output", so.data(), bytes_of(so));
}

// The checks of merge_by_key on both backends: one key type and one value
// type, matching lengths, the outputs apart from the inputs and from each
// other.
template <class SKA, class SVA, class SKB, class SVB, class SKO, class SVO>
void merge_by_key_checks(const SKA& ka, const SVA& va, const SKB& kb, const SVB& vb, const SKO& ko,
                         const SVO& vo) {
  using K = order_element_t<SKA>;
  using V = order_element_t<SVA>;
  static_assert(std::is_same_v<K, order_element_t<SKB>> && std::is_same_v<K, order_element_t<SKO>>,
                "gpuprim::merge_by_key: the keys of a, b and the output must have one type");
  static_assert(std::is_same_v<V, order_element_t<SVB>> && std::is_same_v<V, order_element_t<SVO>>,
                "gpuprim::merge_by_key: the values of a, b and the output must have one type");
  order_check_element<K>();
  order_check_element<V>();
  const char* algorithm = "merge_by_key";
  check_same_length(algorithm, "a's keys", ka.size(), "a's values", va.size());
  check_same_length(algorithm, "b's keys", kb.size(), "b's values", vb.size());
  check_same_length(algorithm, "the keys output", ko.size(), "a and b together",
                    ka.size() + kb.size());
  check_same_length(algorithm, "the values output", vo.size(), "a and b together",
                    ka.size() + kb.size());
  const std::pair<const char*, std::pair<const void*, std::size_t>> inputs[] = {
      {"a's keys", {ka.data(), bytes_of(ka)}},
      {"a's values", {va.data(), bytes_of(va)}},
      {"b's keys", {kb.data(), bytes_of(kb)}},
      {"b's values", {vb.data(), bytes_of(vb)}},
      {"the values output", {vo.data(), bytes_of(vo)}}};
  for (const auto& [name, range] : inputs) {
    check_disjoint(algorithm, name, range.first, range.second, "the keys output", ko.data(),
                   bytes_of(ko));
  }
  for (int i = 0; i < 4; ++i) {
    check_disjoint(algorithm, inputs[i].first, inputs[i].second.first, inputs[i].second.second,
                   "the values output", vo.data(), bytes_of(vo));
  }
}

// The checks of merge_sort_by_key on both backends: the element types, one
// length, keys apart from values.
template <class SK, class SV>
void merge_sort_by_key_checks(const SK& k, const SV& v) {
  order_check_element<order_element_t<SK>>();
  order_check_element<order_element_t<SV>>();
  const char* algorithm = "merge_sort_by_key";
  check_same_length(algorithm, "the keys", k.size(), "the values", v.size());
  check_disjoint(algorithm, "keys", k.data(), bytes_of(k), "values", v.data(), bytes_of(v));
}

}  // namespace detail

template <class RA, class RB, class O, class Comp = less>
void merge(host_backend backend, const RA& a, const RB& b, O&& out, Comp comp = {}) {
  const auto sa = detail::host_span(a);
  const auto sb = detail::host_span(b);
  const auto so = detail::writable_host_span(out);
  detail::merge_checks(sa, sb, so);
  using T = detail::order_element_t<decltype(so)>;
  host_impl::merge<T, void>(backend, {sa.data()}, sa.size(), {sb.data()}, sb.size(), {so.data()},
                            comp);
}

template <class RKA, class RVA, class RKB, class RVB, class OK, class OV, class Comp = less>
void merge_by_key(host_backend backend, const RKA& keys_a, const RVA& values_a, const RKB& keys_b,
                  const RVB& values_b, OK&& keys_out, OV&& values_out, Comp comp = {}) {
  const auto ka = detail::host_span(keys_a);
  const auto va = detail::host_span(values_a);
  const auto kb = detail::host_span(keys_b);
  const auto vb = detail::host_span(values_b);
  const auto ko = detail::writable_host_span(keys_out);
  const auto vo = detail::writable_host_span(values_out);
  detail::merge_by_key_checks(ka, va, kb, vb, ko, vo);
  using K = detail::order_element_t<decltype(ko)>;
  using V = detail::order_element_t<decltype(vo)>;
  host_impl::merge<K, V>(backend, {ka.data(), va.data()}, ka.size(), {kb.data(), vb.data()},
                         kb.size(), {ko.data(), vo.data()}, comp);
}

template <class R, class Comp = less>
void merge_sort(host_backend backend, R&& x, Comp comp = {}) {
  const auto s = detail::writable_host_span(x);
  using T = typename decltype(s)::element_type;
  detail::order_check_element<T>();
  host_impl::merge_sort<T, void>(backend, {s.data()}, s.size(), comp);
}

template <class RK, class RV, class Comp = less>
void merge_sort_by_key(host_backend backend, RK&& keys, RV&& values, Comp comp = {}) {
  const auto k = detail::writable_host_span(keys);
  const auto v = detail::writable_host_span(values);
  detail::merge_sort_by_key_checks(k, v);
  using K = typename decltype(k)::element_type;
  using V = typename decltype(v)::element_type;
  host_impl::merge_sort<K, V>(backend, {k.data(), v.data()}, k.size(), comp);
}

// The GPU forms: device spans (or device_vectors), enqueued on the
// backend's stream, nothing synchronized. From plain C++ the precompiled
// instances (gpuprim/detail/order/precompiled.hpp); from a .cu file that
// includes gpuprim/cuda/merge.cuh any types and __device__ comparator.
template <class RA, class RB, class O, class Comp = less>
void merge(cuda_backend backend, const RA& a, const RB& b, O&& out, Comp comp = {}) {
  const auto sa = as_device_span(a);
  const auto sb = as_device_span(b);
  const auto so = writable_device_span(out);
  detail::merge_checks(sa, sb, so);
  using T = detail::order_element_t<decltype(so)>;
  using none = detail::order_no_value;
  detail::cuda_merge_checked<T, none>("merge", sa.data(), static_cast<const none*>(nullptr),
                                      sa.size(), sb.data(), static_cast<const none*>(nullptr),
                                      sb.size(), so.data(), static_cast<none*>(nullptr), comp,
                                      backend.stream);
}

template <class RKA, class RVA, class RKB, class RVB, class OK, class OV, class Comp = less>
void merge_by_key(cuda_backend backend, const RKA& keys_a, const RVA& values_a, const RKB& keys_b,
                  const RVB& values_b, OK&& keys_out, OV&& values_out, Comp comp = {}) {
  const auto ka = as_device_span(keys_a);
  const auto va = as_device_span(values_a);
  const auto kb = as_device_span(keys_b);
  const auto vb = as_device_span(values_b);
  const auto ko = writable_device_span(keys_out);
  const auto vo = writable_device_span(values_out);
  detail::merge_by_key_checks(ka, va, kb, vb, ko, vo);
  using K = detail::order_element_t<decltype(ko)>;
  using V = detail::order_element_t<decltype(vo)>;
  detail::cuda_merge_checked<K, V>("merge_by_key", ka.data(), va.data(), ka.size(), kb.data(),
                                   vb.data(), kb.size(), ko.data(), vo.data(), comp,
                                   backend.stream);
}

template <class R, class Comp = less>
void merge_sort(cuda_backend backend, R&& x, Comp comp = {}) {
  const auto s = writable_device_span(x);
  using T = typename decltype(s)::element_type;
  detail::order_check_element<T>();
  using none = detail::order_no_value;
  detail::cuda_merge_sort_checked<T, none>("merge_sort", s.data(), static_cast<none*>(nullptr),
                                           s.size(), comp, backend.stream);
}

template <class RK, class RV, class Comp = less>
void merge_sort_by_key(cuda_backend backend, RK&& keys, RV&& values, Comp comp = {}) {
  const auto k = writable_device_span(keys);
  const auto v = writable_device_span(values);
  detail::merge_sort_by_key_checks(k, v);
  using K = typename decltype(k)::element_type;
  using V = typename decltype(v)::element_type;
  detail::cuda_merge_sort_checked<K, V>("merge_sort_by_key", k.data(), v.data(), k.size(), comp,
                                        backend.stream);
}

}  // namespace gpuprim
