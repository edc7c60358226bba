// Radix sort: sort, sort_by_key, and their stable_ names.
//
//   gp::sort(gp::cuda, d_keys);                                  // in place
//   gp::sort(gp::host, keys, gp::sort_order::descending);
//   gp::sort_by_key(gp::cuda.on(s), d_keys, d_values);           // pairs
//   gp::sort(gp::cuda, d_in, d_out, gp::sort_order::ascending,   // out of place,
//            gp::key_bits{0, 12});                               // 12 low bits
//
// Semantics, for every backend:
//  - Keys: 8/16/32/64-bit signed and unsigned integers, float, double, in
//    the order of gpuprim/sort_types.hpp: floats by value with -0.0
//    before +0.0 and every NaN last (in both directions); descending is
//    the reverse of ascending except that NaNs stay last.
//  - Values (sort_by_key): any trivially copyable type of 4 or 8 bytes,
//    moved with their keys.
//  - Stable: keys that compare equal keep their input order (so stable_sort
//    and sort are the same calls). The host's keys-only sort of 32- and
//    64-bit keys over all their bits is a quicksort on processors with
//    AVX-512 (host/simd_sort.hpp), whose output is the stable one all the
//    same: such keys compare equal only when their bytes are (NaNs, which
//    compare equal whatever their payload, keep their input order).
//  - key_bits{begin, end}: only bits [begin, end) of each key's order
//    pattern (radix_key<K>::to_bits) are compared; for unsigned integers
//    these are the key's own bits. Default: all bits.
//  - The out-of-place forms leave the input untouched; output ranges must
//    have the input's size and be either the input's memory or disjoint.
//  - Errors (sizes, bit range, overlap) are thrown before anything is
//    written. The GPU backend sorts fewer than 2^32 elements per call.
// Every key type is compiled into the library, so plain C++ callers reach
// the GPU backend too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/detail/sort/sort.hpp"
#include "gpuprim/host/radix_sort.hpp"
#include "gpuprim/sort_types.hpp"

namespace gpuprim {

// sort_order { ascending, descending } and key_bits { begin, end } (bits
// [begin, end) of the key's order pattern; end = -1 means the top bit) are
// in gpuprim/sort_types.hpp.

namespace detail {

// The host step of every sort call: the checks, then the host radix sort.
template <class K, class V>
void host_sort(host_backend backend, std::span<const K> keys_in, std::span<K> keys_out,
               std::span<const V> values_in, std::span<V> values_out, sort_order order,
               key_bits bits, const char* algorithm) {
  const radix_sort_plan plan =
      check_sort<K, V>(keys_in, keys_out, values_in, values_out, order, bits, algorithm);
  host_impl::radix_sort<K, V>(backend, keys_in.data(), keys_out.data(), values_in.data(),
                                values_out.data(), plan);
}

}  // namespace detail

// ---- sort (keys only) -----------------------------------------------------

// In place.
template <host_range R>
void sort(host_backend backend, R&& keys, sort_order order = sort_order::ascending,
          key_bits bits = {}) {
  auto k = detail::writable_host_span(keys);
  using K = typename decltype(k)::value_type;
  detail::host_sort<K, host_impl::no_value>(backend, detail::as_const(k), k, {}, {}, order, bits,
                                              "sort");
}

template <device_range R>
void sort(cuda_backend backend, R&& keys, sort_order order = sort_order::ascending,
          key_bits bits = {}) {
  auto k = writable_device_span(keys);
  using K = std::remove_const_t<typename decltype(k)::element_type>;
  detail::device_sort<K, host_impl::no_value>(backend, detail::as_const(k), k, {}, {}, order,
                                                bits, "sort");
}

// Out of place: `in` is left as it was.
template <host_range R, host_range O>
void sort(host_backend backend, const R& in, O&& out, sort_order order = sort_order::ascending,
          key_bits bits = {}) {
  const auto i = detail::host_span(in);
  auto o = detail::writable_host_span(out);
  using K = typename decltype(o)::value_type;
  static_assert(std::is_same_v<typename decltype(i)::value_type, K>,
                "gpuprim::sort: input and output keys must have the same type");
  detail::host_sort<K, host_impl::no_value>(backend, i, o, {}, {}, order, bits, "sort");
}

template <device_range R, device_range O>
void sort(cuda_backend backend, const R& in, O&& out, sort_order order = sort_order::ascending,
          key_bits bits = {}) {
  device_span<const device_range_value_t<const R>> i = as_device_span(in);
  auto o = writable_device_span(out);
  using K = std::remove_const_t<typename decltype(o)::element_type>;
  static_assert(std::is_same_v<device_range_value_t<const R>, K>,
                "gpuprim::sort: input and output keys must have the same type");
  detail::device_sort<K, host_impl::no_value>(backend, i, o, {}, {}, order, bits, "sort");
}

// ---- sort_by_key (keys and values) ------------------------------------------

// In place: keys sorted, values moved with them.
template <host_range R, host_range V>
void sort_by_key(host_backend backend, R&& keys, V&& values,
                 sort_order order = sort_order::ascending, key_bits bits = {}) {
  auto k = detail::writable_host_span(keys);
  auto v = detail::writable_host_span(values);
  using K = typename decltype(k)::value_type;
  using T = typename decltype(v)::value_type;
  detail::host_sort<K, T>(backend, detail::as_const(k), k, detail::as_const(v), v, order, bits,
                          "sort_by_key");
}

template <device_range R, device_range V>
void sort_by_key(cuda_backend backend, R&& keys, V&& values,
                 sort_order order = sort_order::ascending, key_bits bits = {}) {
  auto k = writable_device_span(keys);
  auto v = writable_device_span(values);
  using K = std::remove_const_t<typename decltype(k)::element_type>;
  using T = std::remove_const_t<typename decltype(v)::element_type>;
  detail::device_sort<K, T>(backend, detail::as_const(k), k, detail::as_const(v), v, order, bits,
                            "sort_by_key");
}

// Out of place: keys_in/values_in are left as they were.
template <host_range R, host_range V, host_range RO, host_range VO>
void sort_by_key(host_backend backend, const R& keys_in, const V& values_in, RO&& keys_out,
                 VO&& values_out, sort_order order = sort_order::ascending, key_bits bits = {}) {
  const auto ki = detail::host_span(keys_in);
  const auto vi = detail::host_span(values_in);
  auto ko = detail::writable_host_span(keys_out);
  auto vo = detail::writable_host_span(values_out);
  using K = typename decltype(ko)::value_type;
  using T = typename decltype(vo)::value_type;
  static_assert(std::is_same_v<typename decltype(ki)::value_type, K> &&
                    std::is_same_v<typename decltype(vi)::value_type, T>,
                "gpuprim::sort_by_key: inputs and outputs must have the same types");
  detail::host_sort<K, T>(backend, ki, ko, vi, vo, order, bits, "sort_by_key");
}

template <device_range R, device_range V, device_range RO, device_range VO>
void sort_by_key(cuda_backend backend, const R& keys_in, const V& values_in, RO&& keys_out,
                 VO&& values_out, sort_order order = sort_order::ascending, key_bits bits = {}) {
  device_span<const device_range_value_t<const R>> ki = as_device_span(keys_in);
  device_span<const device_range_value_t<const V>> vi = as_device_span(values_in);
  auto ko = writable_device_span(keys_out);
  auto vo = writable_device_span(values_out);
  using K = std::remove_const_t<typename decltype(ko)::element_type>;
  using T = std::remove_const_t<typename decltype(vo)::element_type>;
  static_assert(std::is_same_v<device_range_value_t<const R>, K> &&
                    std::is_same_v<device_range_value_t<const V>, T>,
                "gpuprim::sort_by_key: inputs and outputs must have the same types");
  detail::device_sort<K, T>(backend, ki, ko, vi, vo, order, bits, "sort_by_key");
}

// ---- stable_ names -----------------------------------------------------------
// The radix sort is stable, so these are the same calls under the names a
// reader looking for stability expects.

template <class Backend, class... Args>
void stable_sort(Backend backend, Args&&... args) {
  sort(backend, std::forward<Args>(args)...);
}

template <class Backend, class... Args>
void stable_sort_by_key(Backend backend, Args&&... args) {
  sort_by_key(backend, std::forward<Args>(args)...);
}

}  // namespace gpuprim
