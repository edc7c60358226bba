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
//    the order of gpuprim/core/radix_key.hpp: floats by value with -0.0
//    before +0.0 and every NaN last (in both directions); descending is
//    the reverse of ascending except that NaNs stay last.
//  - Values (sort_by_key): any trivially copyable type of 4 or 8 bytes,
//    moved with their keys.
//  - Stable: keys that compare equal keep their input order (so stable_sort
//    and sort are the same algorithm).
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
#include "gpuprim/core/radix_key.hpp"
#include "gpuprim/host/radix_sort.hpp"
#include "gpuprim/reduce.hpp"

namespace gpuprim {

enum class sort_order { ascending, descending };

// Bits [begin, end) of the key's order pattern; end = -1 means the top bit.
struct key_bits {
  int begin = 0;
  int end = -1;
};

namespace detail {

#if GPUPRIM_HAS_CUDA
// Defined in gpuprim/cuda/device/device_radix_sort.cuh, compiled for every
// radix key type in src/sort/. Sorts keys_in -> keys_out (and values
// alongside, as opaque words); in and out may be the same memory.
template <class K>
void cuda_radix_sort(const K* keys_in, K* keys_out, const void* values_in, void* values_out,
                     const radix_sort_plan& plan, stream_t stream);
#else
template <class K>
void cuda_radix_sort(const K*, K*, const void*, void*, const radix_sort_plan&, stream_t) {
  no_cuda_backend("sort");
}
#endif

template <class K>
radix_sort_plan make_radix_sort_plan(std::size_t n, sort_order order, key_bits bits,
                                     int value_bytes, const char* algorithm) {
  static_assert(is_radix_key_v<K>,
                "gpuprim: sort keys must be 8/16/32/64-bit integers, float or double");
  constexpr int key_bit_count = 8 * static_cast<int>(sizeof(K));
  const int end = bits.end < 0 ? key_bit_count : bits.end;
  if (bits.begin < 0 || bits.begin > end || end > key_bit_count) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": key_bits{" +
                                std::to_string(bits.begin) + ", " + std::to_string(bits.end) +
                                "} is not a bit range of a " + std::to_string(key_bit_count) +
                                "-bit key");
  }
  return {n, bits.begin, end, order == sort_order::descending, value_bytes};
}

// Output of `out_size` elements at `out` for an input at `in`: same size,
// and the same memory or disjoint.
inline void check_sort_output(const char* algorithm, const char* what, const void* in,
                              std::size_t in_size, const void* out, std::size_t out_size,
                              std::size_t element_bytes) {
  if (in_size != out_size) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": " + what + " has " +
                                std::to_string(out_size) + " elements, the input " +
                                std::to_string(in_size));
  }
  const auto a = reinterpret_cast<std::uintptr_t>(in);
  const auto b = reinterpret_cast<std::uintptr_t>(out);
  const std::size_t bytes = in_size * element_bytes;
  if (a != b && a < b + bytes && b < a + bytes) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": " + what +
                                " overlaps the input without being the same memory");
  }
}

inline void check_value_count(const char* algorithm, std::size_t keys, std::size_t values) {
  if (keys != values) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": " + std::to_string(keys) +
                                " keys but " + std::to_string(values) + " values");
  }
}

inline void check_distinct(const char* algorithm, const void* keys, std::size_t key_bytes,
                           const void* values, std::size_t value_bytes) {
  const auto a = reinterpret_cast<std::uintptr_t>(keys);
  const auto b = reinterpret_cast<std::uintptr_t>(values);
  if (key_bytes && value_bytes && a < b + value_bytes && b < a + key_bytes) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm +
                                ": a key range and a value range overlap");
  }
}

// 0 for keys only, else the value's size (4 or 8 bytes).
template <class V>
constexpr int value_word_bytes() {
  if constexpr (std::is_same_v<V, host_detail::no_value>) {
    return 0;
  } else {
    static_assert(std::is_trivially_copyable_v<V> && (sizeof(V) == 4 || sizeof(V) == 8),
                  "gpuprim: sort_by_key moves values of 4 or 8 bytes (trivially copyable)");
    return static_cast<int>(sizeof(V));
  }
}

// Every check of a sort call (sizes, overlaps, bit range), for host spans
// and device spans alike; returns the plan. Nothing has been written yet.
template <class K, class V, class KeysIn, class KeysOut, class ValuesIn, class ValuesOut>
radix_sort_plan check_sort(const KeysIn& keys_in, const KeysOut& keys_out,
                           const ValuesIn& values_in, const ValuesOut& values_out, sort_order order,
                           key_bits bits, const char* algorithm) {
  const radix_sort_plan plan =
      make_radix_sort_plan<K>(keys_in.size(), order, bits, value_word_bytes<V>(), algorithm);
  check_sort_output(algorithm, "the key output", keys_in.data(), keys_in.size(), keys_out.data(),
                    keys_out.size(), sizeof(K));
  if constexpr (!std::is_same_v<V, host_detail::no_value>) {
    check_value_count(algorithm, keys_in.size(), values_in.size());
    check_sort_output(algorithm, "the value output", values_in.data(), values_in.size(),
                      values_out.data(), values_out.size(), sizeof(V));
    check_distinct(algorithm, keys_out.data(), keys_out.size_bytes(), values_out.data(),
                   values_out.size_bytes());
    check_distinct(algorithm, keys_out.data(), keys_out.size_bytes(), values_in.data(),
                   values_in.size_bytes());
    check_distinct(algorithm, keys_in.data(), keys_in.size_bytes(), values_out.data(),
                   values_out.size_bytes());
  }
  return plan;
}

template <class K, class V>
void host_sort(host_backend backend, std::span<const K> keys_in, std::span<K> keys_out,
               std::span<const V> values_in, std::span<V> values_out, sort_order order,
               key_bits bits, const char* algorithm) {
  const radix_sort_plan plan =
      check_sort<K, V>(keys_in, keys_out, values_in, values_out, order, bits, algorithm);
  host_detail::radix_sort<K, V>(backend, keys_in.data(), keys_out.data(), values_in.data(),
                                values_out.data(), plan);
}

template <class K, class V>
void device_sort(cuda_backend backend, device_span<const K> keys_in, device_span<K> keys_out,
                 device_span<const V> values_in, device_span<V> values_out, sort_order order,
                 key_bits bits, const char* algorithm) {
  constexpr bool has_values = !std::is_same_v<V, host_detail::no_value>;
  const radix_sort_plan plan =
      check_sort<K, V>(keys_in, keys_out, values_in, values_out, order, bits, algorithm);
  if (keys_in.size() >= (std::size_t{1} << 32)) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": " +
                                std::to_string(keys_in.size()) +
                                " keys; the GPU radix sort takes fewer than 2^32 per call");
  }
  cuda_radix_sort(keys_in.data(), keys_out.data(),
                  has_values ? static_cast<const void*>(values_in.data()) : nullptr,
                  has_values ? static_cast<void*>(values_out.data()) : nullptr, plan,
                  backend.stream);
}

template <class T>
std::span<const T> as_const(std::span<T> s) {
  return {s.data(), s.size()};
}
template <class T>
device_span<const T> as_const(device_span<T> s) {
  return {s.data(), s.size()};
}

}  // namespace detail

// ---- sort (keys only) -----------------------------------------------------

// In place.
template <host_range R>
void sort(host_backend backend, R&& keys, sort_order order = sort_order::ascending,
          key_bits bits = {}) {
  auto k = detail::writable_host_span(keys);
  using K = typename decltype(k)::value_type;
  detail::host_sort<K, host_detail::no_value>(backend, detail::as_const(k), k, {}, {}, order, bits,
                                              "sort");
}

template <device_range R>
void sort(cuda_backend backend, R&& keys, sort_order order = sort_order::ascending,
          key_bits bits = {}) {
  auto k = writable_device_span(keys);
  using K = std::remove_const_t<typename decltype(k)::element_type>;
  detail::device_sort<K, host_detail::no_value>(backend, detail::as_const(k), k, {}, {}, order,
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
  detail::host_sort<K, host_detail::no_value>(backend, i, o, {}, {}, order, bits, "sort");
}

template <device_range R, device_range O>
void sort(cuda_backend backend, const R& in, O&& out, sort_order order = sort_order::ascending,
          key_bits bits = {}) {
  device_span<const device_range_value_t<const R>> i = as_device_span(in);
  auto o = writable_device_span(out);
  using K = std::remove_const_t<typename decltype(o)::element_type>;
  static_assert(std::is_same_v<device_range_value_t<const R>, K>,
                "gpuprim::sort: input and output keys must have the same type");
  detail::device_sort<K, host_detail::no_value>(backend, i, o, {}, {}, order, bits, "sort");
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
