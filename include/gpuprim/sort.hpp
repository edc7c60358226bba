// Every sort: include this one header for any of them.
//
//   gp::sort(gp::cuda, d_keys);                                  // radix, in place
//   gp::sort(gp::host, keys, gp::sort_order::descending);
//   gp::sort_by_key(gp::cuda.on(s), d_keys, d_values);           // pairs
//   gp::sort(gp::cuda, d_in, d_out, gp::sort_order::ascending,   // out of place,
//            gp::key_bits{0, 12});                               // 12 low bits
//   gp::bitonic_sort(gp::cuda, d_keys);                          // a network
//   gp::sort_batched(gp::cuda.on(s), d_keys, 32);                // each run of 32
//   gp::segmented_sort(gp::cuda, d_keys, d_offsets);             // each segment
//   gp::argsort_batched(gp::cuda, d_keys, cols, d_indices);      // positions per row
//
// Which sort:
//   sort, sort_by_key, stable_sort,   radix sort of arithmetic keys (values
//   stable_sort_by_key                of 4 or 8 bytes); stable; key_bits
//   bitonic_sort, odd_even_merge_sort one array in place, any key type with
//                                     a comparator; not stable
//   sort_batched, segmented_sort      many small arrays in place: equal runs
//                                     or runs given by offsets
//   argsort_batched                   the stable positions that sort each run
//   merge_sort, merge_sort_by_key     any type with a comparator, stable
//                                     (gpuprim/merge.hpp, included here)
// All of them order keys as gpuprim/sort_types.hpp says (-0.0 before +0.0,
// NaNs last in both directions) unless given another comparator.
//
// Semantics, for every backend:
//  Radix sort (sort, sort_by_key and their stable_ names):
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
//  Every key type is compiled into the library, so plain C++ callers reach
//  the GPU backend too.
//
//  Sorting networks, sort_batched, segmented_sort:
//  - In place; any length (the network is padded to a power of two inside:
//    positions past the end act as +infinity and are never touched).
//  - Keys: any trivially copyable, default-constructible type with a
//    comparator that is a strict weak order (comp(a, b): a goes before b).
//    The default, gp::sort_less, is the radix sort's order, with
//    gp::sort_greater its descending one. Networks are not stable: keys
//    that compare equal (NaNs with different payloads) may come out in any
//    order.
//  - sort_batched(data, array_size): data.size() must be a multiple of
//    array_size (> 0); each run data[a * array_size, (a + 1) * array_size)
//    is sorted on its own.
//  - segmented_sort(data, offsets): offsets are num_segments + 1
//    non-decreasing positions with offsets[0] == 0 and offsets.back() ==
//    data.size(); segment s is data[offsets[s], offsets[s + 1]) (empty
//    segments are allowed). On the GPU the offsets (device memory) are
//    copied to the host and checked there first: the call synchronizes
//    with the stream once, before it enqueues the sort.
//  - Bad arguments throw std::invalid_argument before anything is written.
//  GPU: arrays of up to 64 keys sort in registers (a few lanes of a warp per
//  array), arrays up to 32 KiB in one block's shared memory, longer ones by
//  one launch per global compare-exchange step plus shared-memory merges
//  (bitonic) or global steps (odd-even). The host runs the same networks
//  with OpenMP; batched and segmented host sorts use std::sort per array.
//  From plain C++ the GPU backend is precompiled for int32/uint32/int64/
//  uint64/float/double keys with sort_less and sort_greater; other types or
//  comparators need a .cu file that includes gpuprim/cuda/sorting_network.cuh.
//
//  argsort_batched(keys, array_size, indices [, sorted_keys, order]):
//  - Run a is keys[a * array_size, (a + 1) * array_size); indices[a *
//    array_size + j] (int64) is the position within run a of its j-th key
//    in order, as numpy.argsort(kind="stable") along the last axis. With
//    `sorted_keys` the keys in that order are written too.
//  - The radix sort's order; stable: equal keys keep input order, also
//    descending.
//  - keys.size() must be a multiple of array_size (> 0 unless keys is
//    empty); the outputs have keys.size() elements (and must not overlap
//    the keys). Errors are std::invalid_argument, thrown before anything is
//    written.
//  The GPU form is two radix sorts (the keys with their positions, then the
//  positions by run) and a gather (cuda/device/device_argsort_batched.cuh),
//  precompiled for the radix sort's key types; the host sorts each run with
//  the host radix sort, runs side by side on OpenMP threads.
#pragma once

#include <omp.h>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/sort/argsort_batched.hpp"
#include "gpuprim/detail/sort/sort.hpp"
#include "gpuprim/detail/sorting_network/sorting_network.hpp"
#include "gpuprim/host/radix_sort.hpp"
#include "gpuprim/host/sorting_network.hpp"
#include "gpuprim/merge.hpp"
#include "gpuprim/sort_types.hpp"

namespace gpuprim {

// ======== Radix sort ==========================================================

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
  detail::device_sort<K, host_impl::no_value>(backend, detail::as_const(k), k, {}, {}, order, bits,
                                              "sort");
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

// ======== Sorting networks, batched and segmented sorts ======================

namespace detail {

// gp::bitonic_sort and gp::odd_even_merge_sort: one in-place network sort
// per backend, the network a parameter.
template <sorting_network Network>
struct network_sort {
  template <class R, class Comp = sort_less>
  requires host_output_range<R>
  void operator()(host_backend backend, R&& data, Comp comp = {}) const {
    auto d = writable_host_span(data);
    check_network_types<std::ranges::range_value_t<R>, Comp>();
    if constexpr (Network == sorting_network::bitonic) {
      host_impl::bitonic_sort(backend, d.data(), d.size(), comp);
    } else {
      host_impl::odd_even_merge_sort(backend, d.data(), d.size(), comp);
    }
  }

  template <device_range R, class Comp = sort_less>
  void operator()(cuda_backend backend, R&& data, Comp comp = {}) const {
    auto d = writable_device_span(data);
    check_precompiled_network<device_range_value_t<R>, Comp>();
    if constexpr (Network == sorting_network::bitonic) {
      on_cuda("bitonic_sort", [&] { cuda_bitonic_sort(d.data(), d.size(), comp, backend.stream); });
    } else {
      on_cuda("odd_even_merge_sort",
              [&] { cuda_odd_even_merge_sort(d.data(), d.size(), comp, backend.stream); });
    }
  }
};

}  // namespace detail

// ---- bitonic_sort / odd_even_merge_sort ------------------------------------

// bitonic_sort(backend, data, comp = sort_less{}) and
// odd_even_merge_sort(backend, data, comp): in place, on a writable host
// range or a device range.
inline constexpr detail::network_sort<detail::sorting_network::bitonic> bitonic_sort{};
inline constexpr detail::network_sort<detail::sorting_network::odd_even_merge>
    odd_even_merge_sort{};

// ---- sort_batched ------------------------------------------------------------

template <class R, class Comp = sort_less>
requires detail::host_output_range<R>
void sort_batched(host_backend backend, R&& data, std::size_t array_size, Comp comp = {}) {
  auto d = detail::writable_host_span(data);
  detail::check_network_types<std::ranges::range_value_t<R>, Comp>();
  detail::check_batched_shape(d.size(), array_size);
  host_impl::sort_batched(backend, d.data(), d.size(), array_size, comp);
}

template <device_range R, class Comp = sort_less>
void sort_batched(cuda_backend backend, R&& data, std::size_t array_size, Comp comp = {}) {
  auto d = writable_device_span(data);
  detail::check_precompiled_network<device_range_value_t<R>, Comp>();
  detail::check_batched_shape(d.size(), array_size);
  detail::on_cuda("sort_batched", [&] {
    detail::cuda_sort_batched(d.data(), d.size(), array_size, comp, backend.stream);
  });
}

// ---- segmented_sort ------------------------------------------------------------

template <class R, host_range O, class Comp = sort_less>
requires detail::host_output_range<R> && std::integral<std::ranges::range_value_t<O>>
void segmented_sort(host_backend backend, R&& data, const O& offsets, Comp comp = {}) {
  auto d = detail::writable_host_span(data);
  detail::check_network_types<std::ranges::range_value_t<R>, Comp>();
  const auto o = detail::host_span(offsets);
  detail::check_sort_offsets(o, d.size());
  host_impl::segmented_sort(backend, d.data(), o, comp);
}

template <device_range R, device_range O, class Comp = sort_less>
requires std::integral<device_range_value_t<const O>>
void segmented_sort(cuda_backend backend, R&& data, const O& offsets, Comp comp = {}) {
  auto d = writable_device_span(data);
  detail::check_precompiled_network<device_range_value_t<R>, Comp>();
  using Offset = device_range_value_t<const O>;
  const device_span<const Offset> o = as_device_span(offsets);
  std::vector<Offset> host_offsets(o.size());
  if (!o.empty()) {
    detail::copy_to_host(host_offsets.data(), o.data(), o.size_bytes(), backend.stream);
    synchronize(backend.stream);
  }
  detail::check_sort_offsets(std::span<const Offset>(host_offsets), d.size());
  const std::vector<std::uint64_t> wide(host_offsets.begin(), host_offsets.end());
  detail::on_cuda("segmented_sort", [&] {
    detail::cuda_segmented_sort(d.data(), d.size(), wide.data(), wide.size(), comp, backend.stream);
  });
}

// ======== argsort_batched =====================================================

namespace detail {

template <class K>
void host_argsort_batched(host_backend backend, std::span<const K> keys, std::size_t array_size,
                          std::int64_t* indices, K* sorted_keys, sort_order order) {
  const std::size_t n = keys.size();
  if (n == 0) return;
  const std::size_t rows = n / array_size;
  if (rows == 1) {
    std::vector<std::int64_t> iota(n);
    std::iota(iota.begin(), iota.end(), std::int64_t{0});
    std::vector<K> scratch(sorted_keys ? 0 : n);
    K* out = sorted_keys ? sorted_keys : scratch.data();
    gpuprim::sort_by_key(backend, keys, std::span<const std::int64_t>(iota), std::span<K>(out, n),
                         std::span<std::int64_t>(indices, n), order);
    return;
  }
  // One run per thread at a time, each with the one-thread radix sort.
  const int threads = backend.thread_count;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    std::vector<K> scratch(sorted_keys ? 0 : array_size);
    std::vector<std::int64_t> iota(array_size);
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t r = 0; r < static_cast<std::int64_t>(rows); ++r) {
      const std::size_t begin = static_cast<std::size_t>(r) * array_size;
      std::iota(iota.begin(), iota.end(), std::int64_t{0});
      K* out = sorted_keys ? sorted_keys + begin : scratch.data();
      gpuprim::sort_by_key(gpuprim::host.threads(1), keys.subspan(begin, array_size),
                           std::span<const std::int64_t>(iota), std::span<K>(out, array_size),
                           std::span<std::int64_t>(indices + begin, array_size), order);
    }
  }
}

}  // namespace detail

template <host_range R, host_range I>
void argsort_batched(host_backend backend, const R& keys, std::size_t array_size, I&& indices,
                     sort_order order = sort_order::ascending) {
  const auto k = detail::host_span(keys);
  auto i = detail::writable_host_span(indices);
  detail::check_argsort_batched(k.size(), array_size, i.size(), nullptr);
  using K = std::remove_cv_t<typename decltype(k)::element_type>;
  detail::host_argsort_batched<K>(backend, k, array_size, i.data(), nullptr, order);
}

template <host_range R, host_range I, host_range O>
void argsort_batched(host_backend backend, const R& keys, std::size_t array_size, I&& indices,
                     O&& sorted_keys, sort_order order = sort_order::ascending) {
  const auto k = detail::host_span(keys);
  auto i = detail::writable_host_span(indices);
  auto s = detail::writable_host_span(sorted_keys);
  const std::size_t sorted_size = s.size();
  detail::check_argsort_batched(k.size(), array_size, i.size(), &sorted_size);
  using K = std::remove_cv_t<typename decltype(k)::element_type>;
  detail::host_argsort_batched<K>(backend, k, array_size, i.data(), s.data(), order);
}

namespace detail {

template <class K>
void device_argsort_batched(cuda_backend backend, device_span<const K> keys, std::size_t array_size,
                            device_span<std::int64_t> indices, std::type_identity_t<K>* sorted_keys,
                            const std::size_t* sorted_size, sort_order order) {
#if !defined(__CUDACC__)
  static_assert(precompiled_argsort_batched<K>,
                "gpuprim: argsort_batched is precompiled for the radix sort's key types; call "
                "it from a .cu file that includes gpuprim/cuda/device/device_argsort_batched.cuh");
#endif
  check_argsort_batched(keys.size(), array_size, indices.size(), sorted_size);
  if (keys.empty()) return;
  on_cuda("argsort_batched", [&] {
    cuda_argsort_batched<K>(keys.data(), sorted_keys, indices.data(), keys.size() / array_size,
                            array_size, order, backend.stream);
  });
}

}  // namespace detail

template <device_range R, device_range I>
void argsort_batched(cuda_backend backend, const R& keys, std::size_t array_size, I&& indices,
                     sort_order order = sort_order::ascending) {
  detail::device_argsort_batched(backend, as_device_span(keys), array_size,
                                 writable_device_span(indices), nullptr, nullptr, order);
}

template <device_range R, device_range I, device_range O>
void argsort_batched(cuda_backend backend, const R& keys, std::size_t array_size, I&& indices,
                     O&& sorted_keys, sort_order order = sort_order::ascending) {
  auto s = writable_device_span(sorted_keys);
  const std::size_t sorted_size = s.size();
  detail::device_argsort_batched(backend, as_device_span(keys), array_size,
                                 writable_device_span(indices), s.data(), &sorted_size, order);
}

}  // namespace gpuprim
