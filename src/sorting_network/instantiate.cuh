// The entry points each precompiled sorting network instance names; the
// files CMake generates from GPUPRIM_SORTING_NETWORK_TYPES (gpuprim/detail/
// sorting_network/precompiled.hpp) include this and instantiate them.
#pragma once

#include <tuple>

#include "gpuprim/cuda/device/device_sorting_network.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/sorting_network/sorting_network.hpp"

namespace gpuprim::detail {

template <class T, class Comp>
constexpr auto entry_of(sorting_network_instance<T, Comp>) {
  return std::tuple{&cuda_bitonic_sort<T, Comp>, &cuda_odd_even_merge_sort<T, Comp>,
                    &cuda_sort_batched<T, Comp>, &cuda_segmented_sort<T, Comp>};
}

}  // namespace gpuprim::detail
