// Sorting networks and batched sorts of many small arrays.
//
//   gp::bitonic_sort(gp::cuda, d_keys);                      // in place, any length
//   gp::odd_even_merge_sort(gp::host, keys, gp::sort_greater{});
//   gp::sort_batched(gp::cuda.on(s), d_keys, 32);            // each run of 32 sorted
//   gp::segmented_sort(gp::cuda, d_keys, d_offsets);         // each segment sorted
//
// Semantics, for every backend:
//  - In place; any length (the network is padded to a power of two inside:
//    positions past the end act as +infinity and are never touched).
//  - Keys: any trivially copyable, default-constructible type with a
//    comparator that is a strict weak order (comp(a, b): a goes before b).
//    The default, gp::sort_less, is the order of gp::sort
//    (sort_types.hpp): -0.0 before +0.0, NaNs last, in both directions
//    with gp::sort_greater. Networks are not stable: keys that compare
//    equal (NaNs with different payloads) may come out in any order.
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
// GPU: arrays of up to 64 keys sort in registers (a few lanes of a warp per
// array), arrays up to 32 KiB in one block's shared memory, longer ones by
// one launch per global compare-exchange step plus shared-memory merges
// (bitonic) or global steps (odd-even). The host runs the same networks
// with OpenMP; batched and segmented host sorts use std::sort per array.
// From plain C++ the GPU backend is precompiled for int32/uint32/int64/
// uint64/float/double keys with sort_less and sort_greater; other types or
// comparators need a .cu file that includes gpuprim/cuda/sorting_network.cuh.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/detail/sorting_network/sorting_network.hpp"
#include "gpuprim/host/sorting_network.hpp"
#include "gpuprim/sort_types.hpp"

namespace gpuprim {

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

}  // namespace gpuprim
