// The radix sort's shared detail: the checks of every sort call (sizes,
// overlaps, bit range) both backends make, and the GPU steps the facade
// (gpuprim/sort.hpp) runs; the entry points are in entry.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_span.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/sort/entry.hpp"
#include "gpuprim/detail/sort/plan.hpp"
#include "gpuprim/detail/sort/precompiled.hpp"
#include "gpuprim/sort_types.hpp"

namespace gpuprim::detail {

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
  if constexpr (std::is_same_v<V, no_value>) {
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
  if constexpr (!std::is_same_v<V, no_value>) {
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
void device_sort(cuda_backend backend, device_span<const K> keys_in, device_span<K> keys_out,
                 device_span<const V> values_in, device_span<V> values_out, sort_order order,
                 key_bits bits, const char* algorithm) {
#if !defined(__CUDACC__)
  static_assert(precompiled_sort<K>,
                "gpuprim: this key type is not compiled into the library (the fixed-width "
                "integers, float and double are); call it from a .cu file that includes "
                "gpuprim/cuda/device/device_radix_sort.cuh");
#endif
  constexpr bool has_values = !std::is_same_v<V, no_value>;
  const radix_sort_plan plan =
      check_sort<K, V>(keys_in, keys_out, values_in, values_out, order, bits, algorithm);
  if (keys_in.size() >= (std::size_t{1} << 32)) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": " +
                                std::to_string(keys_in.size()) +
                                " keys; the GPU radix sort takes fewer than 2^32 per call");
  }
  on_cuda("sort", [&] {
    cuda_radix_sort(keys_in.data(), keys_out.data(),
                    has_values ? static_cast<const void*>(values_in.data()) : nullptr,
                    has_values ? static_cast<void*>(values_out.data()) : nullptr, plan,
                    backend.stream);
  });
}

template <class T>
std::span<const T> as_const(std::span<T> s) {
  return {s.data(), s.size()};
}
template <class T>
device_span<const T> as_const(device_span<T> s) {
  return {s.data(), s.size()};
}

}  // namespace gpuprim::detail
