// Benchmark inputs: random, never zero (zero pages and kernels that skip
// zeros would flatter the figures), made by hashing the element index, so
// every size, backend and vendor anchor sees the same values.
#pragma once

#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/sparse_generate.hpp"

namespace gpuprim::bench {

// splitmix64's finalizer, the sparse generators' own.
inline std::uint64_t mix_bits(std::uint64_t x) {
  return detail::sparse::mix64(x);
}

// Floats in [0.5, 1.5): sums stay far from zero, so a relative check of
// the result against the vendor's catches a kernel that drops elements.
// Integers in [-50, -1] u [1, 50]: 2^28 of them cannot overflow int32 in
// practice (the sum is a random walk).
template <class T>
T random_value(std::uint64_t seed, std::size_t index) {
  const std::uint64_t bits = mix_bits(seed ^ mix_bits(index));
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(0.5 + static_cast<double>(bits >> 11) * 0x1.0p-53);
  } else {
    const auto value = static_cast<T>(static_cast<int>(bits % 100) - 50);
    return value >= 0 ? static_cast<T>(value + 1) : value;
  }
}

// Uninitialized host storage filled in parallel (std::vector would zero it
// on one thread first, placing every page on that thread's NUMA node).
template <class T>
struct host_array {
  std::unique_ptr<T[]> data;
  std::size_t size = 0;

  std::span<const T> span() const { return {data.get(), size}; }
};

template <class T>
host_array<T> random_host_array(std::size_t n, std::uint64_t seed) {
  host_array<T> array{std::unique_ptr<T[]>(new T[n]), n};
  T* out = array.data.get();
  // Each thread writes the contiguous chunk gp::host's reduce gives it, so
  // the pages sit on the NUMA node of the thread that later reads them.
#pragma omp parallel
  {
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    for (std::size_t i = n * t / team; i < n * (t + 1) / team; ++i)
      out[i] = random_value<T>(seed, i);
  }
  return array;
}

// How many copies of a `bytes`-sized input to rotate among so that, between
// two uses of one copy, the others have pushed it out of L2: together they
// cover three times the L2 size (one copy when it alone does).
inline std::size_t copies_to_defeat_l2(std::size_t bytes, std::size_t l2_bytes) {
  if (bytes == 0) return 1;
  const std::size_t copies = (3 * l2_bytes + bytes - 1) / bytes;
  return copies < 1 ? 1 : copies;
}

template <class T>
std::vector<device_vector<T>> device_copies(std::span<const T> values, std::size_t copies) {
  std::vector<device_vector<T>> result;
  result.reserve(copies);
  result.push_back(to_device(values));
  for (std::size_t i = 1; i < copies; ++i)
    result.push_back(result.front());  // device-to-device copy
  synchronize(nullptr);
  return result;
}

// One size's inputs (and outputs) on the device, as many copies of each as
// it takes to defeat L2: call `run` reads input(run) and writes output(run),
// so neither its reads nor its writes hit lines an earlier call left in L2.
template <class T>
struct rotated_buffers {
  std::vector<device_vector<T>> inputs;
  std::vector<device_vector<T>> outputs;  // none when made without outputs

  rotated_buffers(std::span<const T> values, std::size_t l2_cache_bytes, bool with_outputs = true) {
    const std::size_t copies = copies_to_defeat_l2(values.size_bytes(), l2_cache_bytes);
    inputs = device_copies(values, copies);
    if (!with_outputs) return;
    outputs.reserve(copies);
    for (std::size_t i = 0; i < copies; ++i)
      outputs.emplace_back(values.size());
  }
  device_span<const T> input(int run) const { return inputs[run % inputs.size()].span(); }
  device_span<T> output(int run) { return outputs[run % outputs.size()].span(); }
  // Output 0, once the stream has finished writing it.
  std::vector<T> first_output(stream_t stream) {
    synchronize(stream);
    return to_host(outputs[0]);
  }
};

// The note under every table whose inputs rotate (rotated_buffers).
inline std::string l2_note(std::size_t l2_cache_bytes, bool outputs_too) {
  return std::string(outputs_too ? "Inputs and outputs" : "Inputs") + " under 3 x L2 (" +
         std::to_string(3 * (l2_cache_bytes >> 20)) +
         " MiB) are rotated among copies that together exceed it, so every call " +
         (outputs_too ? "reads and writes" : "reads") + " memory, not L2.";
}

}  // namespace gpuprim::bench
