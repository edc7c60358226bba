// What the histogram facade (gpuprim/histogram.hpp) runs on top of the
// binners and the NumPy rule: the counts' concepts and the device steps.
#pragma once

#include <cstdint>
#include <ranges>
#include <stdexcept>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/detail/histogram/binners.hpp"
#include "gpuprim/detail/histogram/numpy_rule.hpp"

namespace gpuprim::detail {

template <class R>
concept histogram_host_counts =
    std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>> &&
    histogram_counter<std::ranges::range_value_t<R>>;

template <class R>
concept histogram_device_counts =
    device_range<R> && histogram_counter<std::remove_const_t<device_range_value_t<R>>>;

template <class R>
using host_sample_t = std::ranges::range_value_t<R>;
template <class R>
using device_sample_t = std::remove_const_t<device_range_value_t<const R>>;

// Runs a device histogram and returns its left-out count (synchronizes).
template <class Sample, class Counter, class Binner>
std::uint64_t cuda_histogram_to_host(cuda_backend backend, device_span<const Sample> samples,
                                     device_span<Counter> counts, Binner binner) {
  const scratch_buffer left_out(sizeof(std::uint64_t), backend.stream);
  std::uint64_t result = 0;
  cuda_histogram_checked(samples, counts, binner, left_out.get<std::uint64_t>(), backend.stream);
  copy_to_host(&result, left_out.get(), sizeof result, backend.stream);
  synchronize(backend.stream);
  return result;
}

inline std::uint64_t* left_out_pointer(const char* algorithm, device_span<std::uint64_t> left_out) {
  if (left_out.data() != nullptr && left_out.size() < 1) {
    throw std::invalid_argument(histogram_where(algorithm) + "left_out is an empty span");
  }
  return left_out.data();
}

}  // namespace gpuprim::detail
