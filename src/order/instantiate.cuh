// The entry point each precompiled order instance names; the files CMake
// generates from GPUPRIM_ORDER_TYPES (gpuprim/detail/order/precompiled.hpp)
// include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_merge.cuh"
#include "gpuprim/cuda/device/device_search.cuh"
#include "gpuprim/cuda/device/device_topk.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/order/entry.hpp"

namespace gpuprim::detail {

template <bool upper, class T, class Q, class I, class Comp>
constexpr auto entry_of(search_instance<upper, T, Q, I, Comp>) {
  return &cuda_search_into<upper, T, Q, I, Comp>;
}

template <class K, class V, class Comp>
constexpr auto entry_of(merge_instance<K, V, Comp>) {
  return &cuda_merge_into<K, V, Comp>;
}

template <class K, class V, class Comp>
constexpr auto entry_of(merge_sort_instance<K, V, Comp>) {
  return &cuda_merge_sort_into<K, V, Comp>;
}

template <class T>
constexpr auto entry_of(topk_instance<T>) {
  return &cuda_topk_into<T>;
}

}  // namespace gpuprim::detail
