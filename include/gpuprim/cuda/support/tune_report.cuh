// What the tuner records of a launch: registers, shared memory and the
// occupancy calculator's resident blocks, asked only while the tuner wants
// them (tuning::detail::kernel_report_wanted), so ordinary calls pay one
// thread-local read.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>

#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

// `grid` blocks of `threads` with `dynamic_shared` bytes each, about to be
// launched on the current device. primary: the kernel the call's tuned
// parameter shapes (tuning::detail::report_kernel).
template <class Kernel>
void report_launch_to_tuner(Kernel kernel, int threads, std::size_t dynamic_shared, unsigned grid,
                            bool primary = false) {
  if (!tuning::detail::kernel_report_wanted()) return;
  const void* function = reinterpret_cast<const void*>(kernel);
  cudaFuncAttributes attributes{};
  GPUPRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, function), "tune");
  int max_blocks = 0;
  GPUPRIM_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&max_blocks, function, threads, dynamic_shared),
      "tune");
  int device = 0, max_threads = 0;
  GPUPRIM_CUDA_CHECK(cudaGetDevice(&device), "tune");
  GPUPRIM_CUDA_CHECK(
      cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device), "tune");
  const int sms = current_multiprocessor_count();
  tuning::kernel_report report;
  report.registers = attributes.numRegs;
  report.shared_bytes = static_cast<int>(attributes.sharedSizeBytes + dynamic_shared);
  report.threads = threads;
  report.max_blocks_per_sm = max_blocks;
  report.blocks_per_sm = std::min(max_blocks, static_cast<int>((grid + sms - 1) / sms));
  report.occupancy = max_threads > 0 ? double(max_blocks) * threads / max_threads : 0.0;
  tuning::detail::report_kernel(report, primary);
}

}  // namespace gpuprim::cuda_impl
