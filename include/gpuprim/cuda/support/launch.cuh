// How the device algorithms launch their kernels, and the launch-shape
// arithmetic they share.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/cuda/support/check.cuh"

namespace gpuprim::cuda_impl {

constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}
constexpr std::size_t align_up(std::size_t x, std::size_t a) {
  return (x + a - 1) / a * a;
}

// Multiprocessor count of the current device (cached per device, read with
// one relaxed atomic load).
int current_multiprocessor_count();

// Occupancy calculator's maximum resident blocks of `kernel` per
// multiprocessor at `threads` per block (cached per thread, device, kernel
// and block size: no lock).
int occupancy_blocks_per_multiprocessor(const void* kernel, int threads);

// Blocks of `kernel` to launch as a persistent grid on the current device:
// `blocks_per_multiprocessor` per SM, or fewer if that many cannot be
// resident at once (a persistent grid must fit in one wave).
template <class Kernel>
unsigned persistent_grid_size(Kernel kernel, int threads, int blocks_per_multiprocessor) {
  const int resident =
      occupancy_blocks_per_multiprocessor(reinterpret_cast<const void*>(kernel), threads);
  const int per_sm =
      blocks_per_multiprocessor > 0 ? std::min(blocks_per_multiprocessor, resident) : resident;
  return static_cast<unsigned>(per_sm) * static_cast<unsigned>(current_multiprocessor_count());
}

// ---- launching -------------------------------------------------------------
//
// Every kernel of the device algorithms is enqueued through the driver's
// cuLaunchKernel, on the kernel's function handle looked up once per thread
// and device, instead of through <<<...>>> (the runtime's cudaLaunchKernel,
// which finds the function again on every call). Measured on sm_90, that
// takes 3.1-3.3 us of host time per launch instead of 3.6-3.8, and an
// isolated 2^20 sum 0.3-0.5 us less (lab/probes/probe_reduce.cu --launch): for
// small inputs the launch is most of the call.

struct launch_shape {
  dim3 grid;
  dim3 block;
  unsigned shared_bytes = 0;
  stream_t stream = nullptr;
};

// The current device's function handle for `kernel` (a __global__
// function's host-side address), cached per thread and device.
cudaFunction_t kernel_function(const void* kernel);

// Enqueues `function` with `args` (one pointer per kernel parameter);
// throws gp::cuda_error naming `kernel_name` and `algorithm` if the driver
// refuses the launch.
void launch_function(cudaFunction_t function, const launch_shape& shape, void** args,
                     const char* kernel_name, const char* algorithm);

// kernel<<<shape>>>(args...) through launch_function. The arguments are
// converted to the kernel's exact parameter types first, as <<<...>>> would,
// since the driver copies each parameter by its declared size.
template <class... Params, class... Args>
void launch(const char* kernel_name, const char* algorithm, void (*kernel)(Params...),
            launch_shape shape, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "launch: wrong number of kernel arguments");
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  // This translation unit's stream 0 is its thread's default stream.
  if (shape.stream == nullptr) shape.stream = cudaStreamPerThread;
#endif
  std::tuple<std::remove_cvref_t<Params>...> values{
      static_cast<std::remove_cvref_t<Params>>(std::forward<Args>(args))...};
  std::apply(
      [&](auto&... value) {
        void* pointers[] = {static_cast<void*>(&value)..., nullptr};
        launch_function(kernel_function(reinterpret_cast<const void*>(kernel)), shape, pointers,
                        kernel_name, algorithm);
      },
      values);
}

}  // namespace gpuprim::cuda_impl
