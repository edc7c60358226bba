// Turning CUDA status codes into gp::cuda_error / gp::out_of_memory.
#pragma once

#include <cuda_runtime_api.h>

#include "gpuprim/core/error.hpp"

namespace gpuprim::detail {

// Throws gp::out_of_memory for allocation failures, gp::cuda_error otherwise.
[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* algorithm,
                                   std::size_t bytes_requested = 0);

inline void check(cudaError_t code, const char* call, const char* algorithm) {
  if (code != cudaSuccess) throw_cuda_error(code, call, algorithm);
}

// After a <<<...>>> launch: configuration errors show up here, not at the call.
inline void check_launch(const char* kernel, const char* algorithm) {
  check(cudaGetLastError(), kernel, algorithm);
}

}  // namespace gpuprim::detail

#define GPUPRIM_CUDA_CHECK(call, algorithm) ::gpuprim::detail::check((call), #call, (algorithm))
