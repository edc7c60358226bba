// What the histogram facade (gpuprim/histogram.hpp) runs on top of the
// binners and the NumPy rule: the counts' concepts and the device steps.
// The host step is in the facade, which alone includes the host backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <stdexcept>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/detail/histogram/binners.hpp"
#include "gpuprim/detail/histogram/entry.hpp"
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

// The steps every facade call takes once its binner is known: make(bins)
// checks the binning's arguments against the number of counts and returns
// the binner; then the samples are counted on the backend (the host step,
// host_histogram_with, is in gpuprim/histogram.hpp).

// On the GPU, synchronizing: returns the left-out count.
template <class R, class C, class MakeBinner>
std::uint64_t cuda_histogram_with(cuda_backend backend, const R& samples, C& counts,
                                  MakeBinner make) {
  auto c = writable_device_span(counts);
  const auto binner = make(c.size());
  device_span<const device_sample_t<R>> s = as_device_span(samples);
  return cuda_histogram_to_host(backend, s, c, binner);
}

// On the GPU, asynchronous (the _into calls): the left-out count goes to
// left_out[0] when given.
template <class R, class C, class MakeBinner>
void cuda_histogram_into_with(const char* algorithm, cuda_backend backend, const R& samples,
                              C& counts, device_span<std::uint64_t> left_out, MakeBinner make) {
  auto c = writable_device_span(counts);
  const auto binner = make(c.size());
  std::uint64_t* out = left_out_pointer(algorithm, left_out);
  device_span<const device_sample_t<R>> s = as_device_span(samples);
  cuda_histogram_checked(s, c, binner, out, backend.stream);
}

}  // namespace gpuprim::detail
