// What the library needs to know about a GPU to size its launches, and what
// `gpuprim info` prints.
#pragma once

#include <cstddef>
#include <string>

namespace gpuprim {

struct device_info {
  int ordinal = 0;
  std::string name;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessor_count = 0;
  int max_threads_per_multiprocessor = 0;
  std::size_t global_memory_bytes = 0;
  std::size_t l2_cache_bytes = 0;
  std::size_t shared_memory_per_block = 0;        // without opting in
  std::size_t shared_memory_per_block_optin = 0;  // after cudaFuncSetAttribute
  std::size_t shared_memory_per_multiprocessor = 0;
  int memory_clock_khz = 0;
  int memory_bus_width_bits = 0;
  // 2 (DDR) * clock * bus width: the datasheet ceiling, not a measurement.
  double theoretical_bandwidth_gbs = 0.0;
};

// Properties of a device; -1 means the current device. Throws gp::cuda_error
// when there is no such device (or no CUDA).
device_info get_device_info(int device = -1);
// The current device's ordinal.
int current_device();

}  // namespace gpuprim
