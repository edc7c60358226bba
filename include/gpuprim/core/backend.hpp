// Backend tags: the first argument of every algorithm says where it runs,
// like a std::execution policy.
//
//   gp::reduce(gp::host, values, 0.0)              // OpenMP, all threads
//   gp::reduce(gp::host.threads(4), values, 0.0)   // OpenMP, 4 threads
//   gp::reduce(gp::cuda, d_values, 0.0f)           // current device, default stream
//   gp::reduce(gp::cuda.on(stream), d_values, 0.0f)
#pragma once

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

struct host_backend {
  // 0 means "OpenMP's default" (omp_get_max_threads()).
  int thread_count = 0;

  constexpr host_backend threads(int count) const { return host_backend{count}; }
};

struct cuda_backend {
  stream_t stream = nullptr;  // nullptr: the legacy default stream

  constexpr cuda_backend on(stream_t s) const { return cuda_backend{s}; }
};

inline constexpr host_backend host{};
inline constexpr cuda_backend cuda{};

}  // namespace gpuprim
