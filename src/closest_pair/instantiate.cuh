// The entry points each precompiled closest pair instance names; the files
// CMake generates from GPUPRIM_CLOSEST_PAIR_TYPES (gpuprim/detail/
// closest_pair/precompiled.hpp) include this and instantiate them.
#pragma once

#include <tuple>

#include "gpuprim/cuda/device/device_closest_pair.cuh"
#include "gpuprim/detail/closest_pair/closest_pair.hpp"
#include "gpuprim/detail/instantiate.hpp"

namespace gpuprim::detail {

template <class T>
constexpr auto entry_of(closest_pair_instance<T>) {
  return std::tuple{&cuda_closest_pair<T>, &cuda_impl::run_closest_pair<T>};
}

}  // namespace gpuprim::detail
