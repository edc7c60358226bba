// The entry points each precompiled SpMV instance names; the files CMake
// generates from GPUPRIM_SPARSE_TYPES (gpuprim/detail/sparse/precompiled.hpp)
// include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_csr_check.cuh"
#include "gpuprim/cuda/device/device_spmv.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/sparse/spmv.hpp"

namespace gpuprim::detail {

template <class T, class I>
constexpr auto entry_of(spmv_instance<T, I>) {
  return &cuda_spmv<T, I>;
}

template <class I>
constexpr auto entry_of(row_stats_instance<I>) {
  return &cuda_row_stats<I>;
}

template <class I>
constexpr auto entry_of(csr_check_instance<I>) {
  return &cuda_check_csr<I>;
}

}  // namespace gpuprim::detail
