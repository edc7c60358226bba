// The matrix multiply's CPU backend entry point (compiled into the library,
// src/gemm/host_gemm.cpp): an optimized BLAS (OpenBLAS through CBLAS) when
// the library was built with one, else a cache-blocked OpenMP loop.
#pragma once

#include <cstddef>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/detail/gemm/entry.hpp"

namespace gpuprim {

namespace detail {

// The CPU backend, host_gemm, is declared in gpuprim/detail/gemm/entry.hpp.
// Whether host_gemm calls an optimized BLAS ("OpenBLAS <version>") or not ("").
const char* host_blas_name() noexcept;

}  // namespace detail
}  // namespace gpuprim
