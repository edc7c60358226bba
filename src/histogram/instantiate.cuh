// The entry point each precompiled histogram instance names; the files CMake
// generates from GPUPRIM_HISTOGRAM_TYPES (gpuprim/detail/histogram/
// precompiled.hpp) include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_histogram.cuh"
#include "gpuprim/detail/histogram/histogram.hpp"
#include "gpuprim/detail/instantiate.hpp"

namespace gpuprim::detail {

template <class Sample, class Counter, class Binner>
constexpr auto entry_of(histogram_instance<Sample, Counter, Binner>) {
  return &cuda_histogram_into<Sample, Counter, Binner>;
}

}  // namespace gpuprim::detail
