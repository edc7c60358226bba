// The sorting networks' shared detail: the checks both backends make (key
// type and comparator, batch shape, segment offsets); the entry points are
// in entry.hpp.
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
#include "gpuprim/detail/sorting_network/entry.hpp"
#include "gpuprim/detail/sorting_network/precompiled.hpp"

namespace gpuprim::detail {

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

}  // namespace gpuprim::detail
