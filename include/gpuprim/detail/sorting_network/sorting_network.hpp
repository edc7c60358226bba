// The sorting networks' shared detail: their CUDA entry points and the
// checks both backends make (key type and comparator, batch shape, segment
// offsets).
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
#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/segmented/segmented.hpp"
#include "gpuprim/detail/sorting_network/precompiled.hpp"
#include "gpuprim/host/sorting_network.hpp"

namespace gpuprim::detail {

// Defined in gpuprim/cuda/device/device_sorting_network.cuh. Each enqueues an
// in-place sort of data[0, n) on `stream`; arguments are already checked.
template <class T, class Comp>
void cuda_bitonic_sort(T* data, std::size_t n, Comp comp, stream_t stream);
template <class T, class Comp>
void cuda_odd_even_merge_sort(T* data, std::size_t n, Comp comp, stream_t stream);
template <class T, class Comp>
void cuda_sort_batched(T* data, std::size_t n, std::size_t array_size, Comp comp, stream_t stream);
// `offsets` are in host memory and partition [0, n).
template <class T, class Comp>
void cuda_segmented_sort(T* data, std::size_t n, const std::uint64_t* offsets,
                         std::size_t num_offsets, Comp comp, stream_t stream);

template <class T, class Comp>
constexpr void check_network_types() {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "gpuprim: sorting networks sort trivially copyable, default-constructible keys");
  static_assert(std::is_invocable_r_v<bool, Comp&, const T&, const T&>,
                "gpuprim: the comparator must be callable as bool(const T&, const T&)");
}

template <class T, class Comp>
constexpr void check_precompiled_network() {
  check_network_types<T, Comp>();
#if !defined(__CUDACC__)
  static_assert(precompiled_sorting_network<T, Comp>,
                "gpuprim: this sorting network's key type/comparator is not precompiled into the "
                "library; call it from a .cu file that includes gpuprim/cuda/sorting_network.cuh");
#endif
}

inline void check_batched_shape(std::size_t n, std::size_t array_size) {
  if (array_size == 0) {
    throw std::invalid_argument("gpuprim::sort_batched: array_size is 0");
  }
  if (n % array_size != 0) {
    throw std::invalid_argument("gpuprim::sort_batched: the data's " + std::to_string(n) +
                                " elements are not a whole number of arrays of " +
                                std::to_string(array_size));
  }
}

// Offsets (host memory) must partition [0, n).
template <class Offset>
void check_sort_offsets(std::span<const Offset> offsets, std::size_t n) {
  if (offsets.empty()) {
    throw std::invalid_argument(
        "gpuprim::segmented_sort: offsets is empty (it needs num_segments + 1 entries, "
        "starting at 0 and ending at the data's size)");
  }
  check_partition_offsets(offsets, n, "segmented_sort");
}

enum class sorting_network { bitonic, odd_even_merge };

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
      host_detail::bitonic_sort(backend, d.data(), d.size(), comp);
    } else {
      host_detail::odd_even_merge_sort(backend, d.data(), d.size(), comp);
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

}  // namespace gpuprim::detail
