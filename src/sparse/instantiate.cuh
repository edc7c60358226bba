// The entry points each precompiled SpMV instance names; the files CMake
// generates from GPUPRIM_SPARSE_TYPES (gpuprim/detail/sparse/precompiled.hpp)
// include this and instantiate them.
#pragma once

#include "gpuprim/cuda/device/device_csr_check.cuh"
#include "gpuprim/cuda/device/device_spmv.cuh"
#include "gpuprim/detail/instantiate.hpp"
#include "gpuprim/detail/sparse/spmv.hpp"

namespace gpuprim::detail {

GPUPRIM_ENTRY_OF(spmv_instance, cuda_spmv)
GPUPRIM_ENTRY_OF(row_stats_instance, cuda_row_stats)
GPUPRIM_ENTRY_OF(csr_check_instance, cuda_check_csr)

}  // namespace gpuprim::detail
