// Histogram family: histogram_even, histogram_range, histogram (user classifier).
//
//   std::vector<std::uint32_t> counts(256);
//   auto left_out = gp::histogram_even(gp::host, bytes, counts, 0, 256);   // one bin per value
//   gp::device_vector<std::uint64_t> d_counts(1024);
//   gp::histogram_even(gp::cuda, d_x, d_counts, 0.0f, 1.0f);             // 1024 bins over [0, 1)
//   gp::histogram_range(gp::cuda, d_x, d_counts4, std::vector<float>{0, 1, 10, 100, 1000});
//   gp::histogram(gp::host, x, counts, [](float v) { return int(v) % 7; });
//   gp::histogram_even_into(gp::cuda.on(s), d_x, d_counts, 0.0f, 1.0f, d_left_out);  // async
//   // numpy.histogram(x, 1024, range=(0, 1)): float32 edges, the last bin closed
//   gp::histogram_even(gp::cuda, d_x, d_counts, gp::numpy_bins::with_range<float>(0, 1));
//   // numpy.histogram(x, 1024): the data's range, the counts and the edges
//   gp::numpy_histogram(gp::cuda, d_x, d_counts, d_edges);
//
// Semantics, for every backend:
//  - The number of bins is counts.size() (at least 1). `counts` is overwritten
//    with the number of samples in each bin; counters are std::uint32_t or
//    std::uint64_t and wrap on overflow.
//  - histogram_even(backend, samples, counts, lower, upper), the default
//    rule, CUB's half-open one: `bins` even bins over [lower, upper). A
//    floating sample x goes to the bin b with edge(b) <= x < edge(b + 1),
//    exactly, where edge(b) = lower + (upper - lower) * b / bins is
//    computed in double and edge(bins) = upper (gp::histogram_even_edge).
//    An integer sample v goes to bin
//    floor((v - lower) * bins / (upper - lower)), computed exactly. Levels
//    of integer samples are int64 (so 8-bit samples can have upper = 256).
//  - histogram_even(backend, samples, counts, numpy_bins), NumPy's rule:
//    numpy.histogram's bins (see numpy_bins below). Edge b is
//    np.linspace(lo, hi, bins + 1)[b] computed as numpy does (in float64
//    for a given range, in the data's type for its default [min, max]),
//    rounded to the data's floating type (float64 for integer samples); x,
//    compared in that type, goes to bin b when edge(b) <= x < edge(b + 1),
//    and the last bin also holds x == hi. Also histogram_even_into and
//    gp::mpi; every precompiled sample type.
//  - numpy_histogram(backend, samples, counts, edges, range): all of
//    numpy.histogram(a, bins, range) for even bins: the range (given, or
//    the samples' [min, max] by the backend's reduction; the GPU waits for
//    those two values), the counts under NumPy's rule and the bins + 1
//    edges (computed on the device for the GPU); numpy_histogram_of_edges
//    for an array of edges. See the end of this file.
//  - numpy_histogram_weighted / numpy_histogram_of_edges_weighted (host):
//    numpy.histogram(a, bins, range, weights=w): sums[b] is the total of
//    the weights of the samples in bin b, in the weights' type, added in
//    numpy's order (so equal to numpy's sums, not only close to them).
//  - histogram_range: boundaries has bins + 1 strictly increasing entries;
//    bin i holds [boundaries[i], boundaries[i + 1]).
//  - histogram: classify(x) returns a bin index (any integer type); a negative
//    or >= bins index means "not counted".
//  - Samples outside the range, NaNs, and samples the classifier rejects are
//    not counted; how many there were is returned ("left out").
//  - Bad arguments (no bins, lower >= upper, NaN or infinite levels,
//    boundaries of the wrong size or not increasing; for NumPy's rule also
//    edges that do not increase, numpy's "Too many bins for data range")
//    throw std::invalid_argument (histogram_argument_error for NumPy's
//    rule, with NumPy's words in reason()) before anything is written.
// Synchronization, like gp::reduce / gp::reduce_into: the value-returning GPU
// forms wait for the result (they return the left-out count); the *_into
// forms only enqueue, writing the left-out count to a device std::uint64_t
// (or nowhere, when it is not given). histogram_range_into takes the
// boundaries in device memory and checks only their number (checking their
// order would cost a copy and a synchronization).
// From plain C++ the GPU backend is precompiled for histogram_even (both
// rules) and histogram_range over uint8, int32, uint32, float and double
// samples with uint32 / uint64 counters (detail::precompiled_histogram), and
// for numpy_histogram / numpy_histogram_of_edges with uint64 counters also
// over int8, int16 and uint16; custom classifiers need a .cu file that
// includes gpuprim/cuda/histogram.cuh.
#pragma once

#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/detail/histogram/histogram.hpp"
#include "gpuprim/histogram_types.hpp"
#include "gpuprim/host/histogram.hpp"
#include "gpuprim/reduce.hpp"

namespace gpuprim {

namespace detail {

// The host step of every histogram call: make(bins) checks the binning's
// arguments against the number of counts and returns the binner; then the
// samples are counted on the host.
template <class R, class C, class MakeBinner>
std::uint64_t host_histogram_with(host_backend backend, const R& samples, C& counts,
                                  MakeBinner make) {
  const auto binner = make(std::ranges::size(counts));
  const auto s = host_span(samples);
  return host_impl::histogram(backend, s.data(), s.size(), std::ranges::data(counts), binner.bins,
                                binner);
}

}  // namespace detail

// The lower edge of bin b (0 <= b <= bins) of histogram_even's `bins` even
// bins over [lower, upper) (the default rule): lower + (upper - lower) * b /
// bins, evaluated in double in that order, and exactly `upper` for b =
// bins; a floating sample x is in bin b exactly when edge(b) <= x <
// edge(b + 1).
GPUPRIM_HD inline double histogram_even_edge(double lower, double upper, int bins, int b) {
  return b >= bins ? upper : detail::even_edge(lower, upper - lower, bins, 1.0 / bins, b);
}

// ---- the NumPy rule: numpy.histogram's even bins ---------------------------
//
// numpy_float, numpy_bins (NumPy's even bins) and numpy_range are in
// gpuprim/histogram_types.hpp (included here); numpy_histogram, which
// finds the range and writes the edges too, is at the end of this file.

// numpy.histogram's bin edges for `bins` bins (bins + 1 values, each exactly
// a value of spec.edges); throws as histogram_even does.
inline std::vector<double> numpy_histogram_edges(const numpy_bins& spec, std::size_t bins) {
  std::vector<double> edges;
  const int n = detail::checked_bins("numpy_histogram_edges", bins);
  edges.reserve(static_cast<std::size_t>(n) + 1);
  detail::checked_numpy_edges("numpy_histogram_edges", n, spec,
                              [&](int, double e) { edges.push_back(e); });
  return edges;
}

template <class D>
numpy_bins numpy_bins::with_range(double lo, double hi) {
  const std::string range = "[" + detail::number_text(lo) + ", " + detail::number_text(hi) + "]";
  if (lo > hi) {
    throw histogram_argument_error("numpy_bins",
                                   "max must be larger than min in range parameter " + range);
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    throw histogram_argument_error("numpy_bins", "supplied range of " + range + " is not finite");
  }
  if (lo == hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  return {lo, hi, numpy_float::float64, numpy_float_of<D>()};
}

template <class D>
numpy_bins numpy_bins::of_data(D min, D max) {
  constexpr numpy_float type = numpy_float_of<D>();
  constexpr bool integer = std::is_integral_v<D>;
  const numpy_float arithmetic = integer ? numpy_float::float64 : type;
  double lo, hi;
  if constexpr (std::is_same_v<D, half>) {
    lo = static_cast<float>(min);
    hi = static_cast<float>(max);
  } else {
    lo = static_cast<double>(min);
    hi = static_cast<double>(max);
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    throw histogram_argument_error("numpy_bins", "autodetected range of [" +
                                                     detail::number_text(lo) + ", " +
                                                     detail::number_text(hi) + "] is not finite");
  }
  bool equal;
  if constexpr (std::is_same_v<D, half>) {
    equal = lo == hi;
  } else {
    equal = min == max;  // integers compare exactly, as numpy does
  }
  if (equal) {
    lo = detail::round_to(arithmetic, lo - 0.5);
    hi = detail::round_to(arithmetic, hi + 0.5);
  }
  return {lo, hi, arithmetic, type};
}

// ---- histogram_even -------------------------------------------------------

template <host_range R, detail::histogram_host_counts C>
requires histogram_sample<detail::host_sample_t<R>> std::uint64_t histogram_even(
    host_backend backend, const R& samples, C&& counts,
    std::type_identity_t<histogram_level_t<detail::host_sample_t<R>>> lower,
    std::type_identity_t<histogram_level_t<detail::host_sample_t<R>>> upper) {
  return detail::host_histogram_with(backend, samples, counts, [&](std::size_t bins) {
    return detail::checked_even_binner<detail::host_sample_t<R>>("histogram_even", bins, lower,
                                                                 upper);
  });
}

template <device_range R, detail::histogram_device_counts C>
requires histogram_sample<detail::device_sample_t<R>> std::uint64_t histogram_even(
    cuda_backend backend, const R& samples, C&& counts,
    std::type_identity_t<histogram_level_t<detail::device_sample_t<R>>> lower,
    std::type_identity_t<histogram_level_t<detail::device_sample_t<R>>> upper) {
  return detail::cuda_histogram_with(backend, samples, counts, [&](std::size_t bins) {
    return detail::checked_even_binner<detail::device_sample_t<R>>("histogram_even", bins, lower,
                                                                   upper);
  });
}

// Asynchronous: enqueues on the backend's stream; left_out[0] (device memory)
// receives the left-out count when given.
template <device_range R, detail::histogram_device_counts C>
requires histogram_sample<detail::device_sample_t<R>>
void histogram_even_into(cuda_backend backend, const R& samples, C&& counts,
                         std::type_identity_t<histogram_level_t<detail::device_sample_t<R>>> lower,
                         std::type_identity_t<histogram_level_t<detail::device_sample_t<R>>> upper,
                         device_span<std::uint64_t> left_out = {}) {
  detail::cuda_histogram_into_with("histogram_even_into", backend, samples, counts, left_out,
                                   [&](std::size_t bins) {
                                     return detail::checked_even_binner<detail::device_sample_t<R>>(
                                         "histogram_even_into", bins, lower, upper);
                                   });
}

// The NumPy rule (numpy_bins): numpy.histogram's edges and bins, the last
// bin closed. On the host also 64-bit integers (compared as float64) and
// gp::half samples (float16 data, float16 edges).
template <host_range R, detail::histogram_host_counts C>
requires numpy_histogram_sample<detail::host_sample_t<R>> std::uint64_t histogram_even(
    host_backend backend, const R& samples, C&& counts, const numpy_bins& bins) {
  return detail::host_histogram_with(backend, samples, counts, [&](std::size_t n) {
    return detail::numpy_binner_for<detail::host_sample_t<R>>("histogram_even", n, bins);
  });
}

template <device_range R, detail::histogram_device_counts C>
requires histogram_sample<detail::device_sample_t<R>> std::uint64_t histogram_even(
    cuda_backend backend, const R& samples, C&& counts, const numpy_bins& bins) {
  return detail::cuda_histogram_with(backend, samples, counts, [&](std::size_t n) {
    return detail::numpy_binner_for<detail::device_sample_t<R>>("histogram_even", n, bins);
  });
}

template <device_range R, detail::histogram_device_counts C>
requires histogram_sample<detail::device_sample_t<R>>
void histogram_even_into(cuda_backend backend, const R& samples, C&& counts, const numpy_bins& bins,
                         device_span<std::uint64_t> left_out = {}) {
  detail::cuda_histogram_into_with(
      "histogram_even_into", backend, samples, counts, left_out, [&](std::size_t n) {
        return detail::numpy_binner_for<detail::device_sample_t<R>>("histogram_even_into", n, bins);
      });
}

// ---- histogram_range ------------------------------------------------------

template <host_range R, detail::histogram_host_counts C, host_range B>
requires histogram_sample<detail::host_sample_t<R>> &&
    std::is_same_v<std::ranges::range_value_t<B>, histogram_level_t<detail::host_sample_t<R>>>
        std::uint64_t histogram_range(host_backend backend, const R& samples, C&& counts,
                                      const B& boundaries) {
  return detail::host_histogram_with(backend, samples, counts, [&](std::size_t n) {
    const auto b = detail::host_span(boundaries);
    const int bins = detail::checked_boundaries("histogram_range", n, b);
    return detail::range_binner<detail::host_sample_t<R>>{b.data(), bins};
  });
}

// The boundaries are host memory here (they are checked on the host and
// copied to the device); the call synchronizes.
template <device_range R, detail::histogram_device_counts C, host_range B>
requires histogram_sample<detail::device_sample_t<R>> &&
    std::is_same_v<std::ranges::range_value_t<B>, histogram_level_t<detail::device_sample_t<R>>>
        std::uint64_t histogram_range(cuda_backend backend, const R& samples, C&& counts,
                                      const B& boundaries) {
  using T = detail::device_sample_t<R>;
  using L = histogram_level_t<T>;
  auto c = writable_device_span(counts);
  const auto b = detail::host_span(boundaries);
  const int bins = detail::checked_boundaries("histogram_range", c.size(), b);
  device_span<const T> s = as_device_span(samples);
  const detail::scratch_buffer d_boundaries(b.size_bytes(), backend.stream);
  detail::copy_to_device(d_boundaries.get(), b.data(), b.size_bytes(), backend.stream);
  return detail::cuda_histogram_to_host(backend, s, c,
                                        detail::range_binner<T>{d_boundaries.get<const L>(), bins});
}

// Asynchronous, with the boundaries in device memory: only their number is
// checked; they must increase (the GPU trusts them).
template <device_range R, detail::histogram_device_counts C, device_range B>
requires histogram_sample<detail::device_sample_t<R>> &&
    std::is_same_v<std::remove_const_t<device_range_value_t<const B>>,
                   histogram_level_t<detail::device_sample_t<R>>>
void histogram_range_into(cuda_backend backend, const R& samples, C&& counts, const B& boundaries,
                          device_span<std::uint64_t> left_out = {}) {
  using T = detail::device_sample_t<R>;
  detail::cuda_histogram_into_with(
      "histogram_range_into", backend, samples, counts, left_out, [&](std::size_t n) {
        device_span<const histogram_level_t<T>> b = as_device_span(boundaries);
        const int bins = detail::checked_bins("histogram_range_into", n);
        if (b.size() != n + 1) {
          throw std::invalid_argument("gpuprim::histogram_range_into: boundaries has " +
                                      std::to_string(b.size()) + " entries; " + std::to_string(n) +
                                      " bins need " + std::to_string(n + 1));
        }
        return detail::range_binner<T>{b.data(), bins};
      });
}

// ---- histogram (user classifier) -------------------------------------------

template <host_range R, detail::histogram_host_counts C, class Classify>
std::uint64_t histogram(host_backend backend, const R& samples, C&& counts, Classify classify) {
  return detail::host_histogram_with(backend, samples, counts, [&](std::size_t n) {
    return detail::classify_binner<Classify>{classify, detail::checked_bins("histogram", n)};
  });
}

template <device_range R, detail::histogram_device_counts C, class Classify>
std::uint64_t histogram(cuda_backend backend, const R& samples, C&& counts, Classify classify) {
  return detail::cuda_histogram_with(backend, samples, counts, [&](std::size_t n) {
    return detail::classify_binner<Classify>{classify, detail::checked_bins("histogram", n)};
  });
}

template <device_range R, detail::histogram_device_counts C, class Classify>
void histogram_into(cuda_backend backend, const R& samples, C&& counts, Classify classify,
                    device_span<std::uint64_t> left_out = {}) {
  detail::cuda_histogram_into_with("histogram_into", backend, samples, counts, left_out,
                                   [&](std::size_t n) {
                                     return detail::classify_binner<Classify>{
                                         classify, detail::checked_bins("histogram_into", n)};
                                   });
}

// ---- numpy_histogram: numpy.histogram(a, bins, range) -----------------------
//
// The whole of numpy.histogram's even bins: the range (given, or the
// samples' own [min, max] found by the backend's reduction: OpenMP on the
// host, on the device for the GPU), the counts and the edges (computed on
// the device for the GPU), under the NumPy rule (numpy_bins) above. Bad
// ranges and too many bins for the data's range throw
// histogram_argument_error (a std::invalid_argument) in NumPy's words
// before anything is written.

namespace detail {

template <class R>
concept numpy_host_edges =
    host_range<R> && !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>> &&
    (std::is_same_v<std::ranges::range_value_t<R>, float> ||
     std::is_same_v<std::ranges::range_value_t<R>, double>);

template <class R>
using numpy_sample_t = std::remove_const_t<std::ranges::range_value_t<R>>;

}  // namespace detail

// numpy.histogram's bins for these samples: `range` when given
// (numpy_bins::with_range), (0, 1) for no samples, else [min, max] of the
// samples as numpy's a.min() / a.max() (a NaN sample makes both NaN, which
// throws "autodetected range of [nan, nan] is not finite"). Samples of any
// number type but bool, or gp::half for float16 data.
template <host_range R>
requires numpy_histogram_sample<detail::numpy_sample_t<R>> numpy_bins numpy_histogram_bins(
    host_backend backend, const R& samples, const std::optional<numpy_range>& range = {}) {
  using T = detail::numpy_sample_t<R>;
  const auto s = detail::host_span(samples);
  return detail::numpy_bins_for<T>(range, s.size(), [&] {
    if constexpr (std::is_same_v<T, half>) {
      auto as_float = [](half h) { return static_cast<float>(h); };
      const float inf = std::numeric_limits<float>::infinity();
      return std::pair{half(transform_reduce(backend, s, inf, minimum{}, as_float)),
                       half(transform_reduce(backend, s, -inf, maximum{}, as_float))};
    } else {
      return std::pair{reduce(backend, s, s[0], minimum{}), reduce(backend, s, s[0], maximum{})};
    }
  });
}

// On the GPU the min and max are reduced on the device and read back: the
// call waits for them (not when `range` is given).
template <device_range R>
requires histogram_sample<detail::device_sample_t<R>> numpy_bins numpy_histogram_bins(
    cuda_backend backend, const R& samples, const std::optional<numpy_range>& range = {}) {
  using T = detail::device_sample_t<R>;
  device_span<const T> s = as_device_span(samples);
  return detail::numpy_bins_for<T>(range, s.size(), [&] {
    const detail::scratch_buffer extremes(2 * sizeof(T), backend.stream);
    const device_span<T> d(extremes.get<T>(), 2);
    const T lowest = std::numeric_limits<T>::lowest();
    const T highest = std::numeric_limits<T>::max();
    reduce_into(backend, s, d.subspan(0, 1), highest, minimum{});
    reduce_into(backend, s, d.subspan(1, 1), lowest, maximum{});
    T host_extremes[2];
    detail::copy_to_host(host_extremes, d.data(), sizeof host_extremes, backend.stream);
    synchronize(backend.stream);
    return std::pair{host_extremes[0], host_extremes[1]};
  });
}

// numpy.histogram(samples, bins=counts.size(), range): counts[b] as
// histogram_even with the bins numpy_histogram_bins finds, edges[0, bins]
// numpy's bin edges (float for float32 and float16 data, double for any);
// returns the number of samples left out (outside the range, NaN).
template <host_range R, detail::histogram_host_counts C, detail::numpy_host_edges E>
requires numpy_histogram_sample<detail::host_sample_t<R>> std::uint64_t numpy_histogram(
    host_backend backend, const R& samples, C&& counts, E&& edges,
    const std::optional<numpy_range>& range = {}) {
  using T = detail::host_sample_t<R>;
  using Edge = std::ranges::range_value_t<E>;
  const numpy_bins spec = numpy_histogram_bins(backend, samples, range);
  const std::size_t bins = std::ranges::size(counts);
  detail::check_numpy_edges_output<Edge>("numpy_histogram", std::ranges::size(edges), bins, spec);
  const auto binner = detail::numpy_binner_for<T>("numpy_histogram", bins, spec);
  Edge* e = std::ranges::data(edges);
  for (int b = 0; b <= binner.bins; ++b)
    e[b] = static_cast<Edge>(binner.edge(b));
  const auto s = detail::host_span(samples);
  return host_impl::histogram(backend, s.data(), s.size(), std::ranges::data(counts), binner.bins,
                                binner);
}

// On the GPU, asynchronous once the bins are known (with no `range`, the
// call waits for the samples' min and max first): the counts and the edges
// are written on the backend's stream, the left-out count to left_out[0]
// when given.
template <device_range R, detail::histogram_device_counts C, device_range E>
requires histogram_sample<detail::device_sample_t<R>>
void numpy_histogram_into(cuda_backend backend, const R& samples, C&& counts, E&& edges,
                          const std::optional<numpy_range>& range = {},
                          device_span<std::uint64_t> left_out = {}) {
  using T = detail::device_sample_t<R>;
  auto c = writable_device_span(counts);
  auto e = writable_device_span(edges);
  using Edge = std::remove_const_t<typename decltype(e)::element_type>;
  const numpy_bins spec = numpy_histogram_bins(backend, samples, range);
  detail::check_numpy_edges_output<Edge>("numpy_histogram_into", e.size(), c.size(), spec);
  const auto binner = detail::numpy_binner_for<T>("numpy_histogram_into", c.size(), spec);
  std::uint64_t* out = detail::left_out_pointer("numpy_histogram_into", left_out);
  detail::cuda_histogram_checked(device_span<const T>(as_device_span(samples)), c, binner, out,
                                 backend.stream);
  detail::cuda_numpy_edges_checked(e, binner.edge, backend.stream);
}

// The same, waiting for the counts and edges; returns the left-out count.
template <device_range R, detail::histogram_device_counts C, device_range E>
requires histogram_sample<detail::device_sample_t<R>> std::uint64_t numpy_histogram(
    cuda_backend backend, const R& samples, C&& counts, E&& edges,
    const std::optional<numpy_range>& range = {}) {
  const detail::scratch_buffer left_out(sizeof(std::uint64_t), backend.stream);
  numpy_histogram_into(backend, samples, counts, edges, range,
                       device_span<std::uint64_t>(left_out.get<std::uint64_t>(), 1));
  std::uint64_t result = 0;
  detail::copy_to_host(&result, left_out.get(), sizeof result, backend.stream);
  synchronize(backend.stream);
  return result;
}

// numpy.histogram(samples, bins=edges) for an array of counts.size() + 1
// edges (float64) that do not decrease: a sample x, compared as a double,
// goes to the last bin b with edges[b] <= x, the last bin also holding x ==
// edges[bins]; returns the number left out. The host checks the edges'
// order (numpy's "`bins` must increase monotonically"); with the edges in
// device memory only their number is checked (the GPU trusts their order),
// and the GPU form is asynchronous, writing the left-out count to
// left_out[0] when given.
template <host_range R, detail::histogram_host_counts C, host_range B>
requires numpy_histogram_sample<detail::host_sample_t<R>> &&
    std::is_same_v < std::remove_const_t<std::ranges::range_value_t<B>>,
double > std::uint64_t numpy_histogram_of_edges(host_backend backend, const R& samples, C&& counts,
                                                const B& edges) {
  return detail::host_histogram_with(backend, samples, counts, [&](std::size_t n) {
    const std::span<const double> b = detail::host_span(edges);
    const int bins = detail::checked_numpy_edges_array("numpy_histogram_of_edges", n, b);
    return detail::numpy_edges_binner<detail::host_sample_t<R>>{b.data(), bins};
  });
}

template <device_range R, detail::histogram_device_counts C, device_range B>
requires histogram_sample<detail::device_sample_t<R>> &&
    std::is_same_v < std::remove_const_t<device_range_value_t<const B>>,
double > void numpy_histogram_of_edges_into(cuda_backend backend, const R& samples, C&& counts,
                                            const B& edges,
                                            device_span<std::uint64_t> left_out = {}) {
  using T = detail::device_sample_t<R>;
  detail::cuda_histogram_into_with(
      "numpy_histogram_of_edges_into", backend, samples, counts, left_out, [&](std::size_t n) {
        device_span<const double> b = as_device_span(edges);
        const int bins = detail::checked_bins("numpy_histogram_of_edges_into", n);
        if (b.size() != n + 1) {
          throw histogram_argument_error("numpy_histogram_of_edges_into",
                                         "edges has " + std::to_string(b.size()) + " entries; " +
                                             std::to_string(n) + " bins need " +
                                             std::to_string(n + 1));
        }
        return detail::numpy_edges_binner<T>{b.data(), bins};
      });
}

// ---- weighted: numpy.histogram(a, bins, range, weights=w) (host) -----------
//
// The weights (one per sample; double, float or an integer type) are added
// instead of counting 1, into sums of the weights' type, as numpy adds
// them: for even bins, block by block of 65536 samples, each block's bin
// totals in double converted to the weights' type (numpy's bincount); for
// an array of edges, numpy's cumulative form (each block sorted, its
// weights' running sum read at the edges, a bin the difference of its two
// edges' totals), so the sums are numpy's (float sums too; with equal
// samples of different weights numpy's unstable sort may add them in
// another order). numpy_histogram_of_edges_weighted also takes weights of
// a number-like class type W (W{} the zero, W + W and W - W giving W:
// numpy's object weights, such as a decimal type or a wrapper of Python
// objects), added in the same order, as numpy's cumulative form adds
// object weights for even bins too. The GPU has no weighted form yet.

namespace detail {

template <class W>
concept numpy_weight = std::is_arithmetic_v<W> && !std::is_same_v<W, bool>;

// A number-like class type: numpy's object weights (its cumulative form).
template <class W>
concept numpy_object_weight = std::is_class_v<W> && std::default_initializable<W> &&
    std::copyable<W> && requires(const W& a, const W& b) {
  { a + b } -> std::convertible_to<W>;
  { a - b } -> std::convertible_to<W>;
};

template <class R, class W, class S>
void check_weights(const char* algorithm, const R& samples, const W& weights, const S& sums) {
  if (std::ranges::size(weights) != std::ranges::size(samples)) {
    throw histogram_argument_error(algorithm,
                                   "weights should have the same shape as a (" +
                                       std::to_string(std::ranges::size(weights)) + " weights, " +
                                       std::to_string(std::ranges::size(samples)) + " samples)");
  }
  (void)sums;
}

}  // namespace detail

// Even bins: sums.size() bins and the edges as numpy_histogram's.
template <host_range R, host_range W, host_range S, detail::numpy_host_edges E>
requires numpy_histogram_sample<detail::host_sample_t<R>> &&
    detail::numpy_weight<std::remove_const_t<std::ranges::range_value_t<W>>> &&
    std::is_same_v<std::remove_const_t<std::ranges::range_value_t<W>>,
                   std::ranges::range_value_t<S>>
void numpy_histogram_weighted(host_backend backend, const R& samples, const W& weights, S&& sums,
                              E&& edges, const std::optional<numpy_range>& range = {}) {
  using T = detail::host_sample_t<R>;
  using Edge = std::ranges::range_value_t<E>;
  detail::check_weights("numpy_histogram_weighted", samples, weights, sums);
  const numpy_bins spec = numpy_histogram_bins(backend, samples, range);
  const std::size_t bins = std::ranges::size(sums);
  detail::check_numpy_edges_output<Edge>("numpy_histogram_weighted", std::ranges::size(edges), bins,
                                         spec);
  const auto binner = detail::numpy_binner_for<T>("numpy_histogram_weighted", bins, spec);
  Edge* e = std::ranges::data(edges);
  for (int b = 0; b <= binner.bins; ++b)
    e[b] = static_cast<Edge>(binner.edge(b));
  const auto s = detail::host_span(samples);
  host_impl::weighted_histogram(s.data(), std::ranges::data(weights), s.size(),
                                  std::ranges::data(sums), binner.bins, binner);
}

// An array of sums.size() + 1 edges (float64) that do not decrease, as
// numpy_histogram_of_edges bins them. Weights of a number-like class type
// (numpy's object weights) are summed here too, in numpy's order.
template <host_range R, host_range W, host_range S, host_range B>
requires numpy_histogram_sample<detail::host_sample_t<R>> &&
    (detail::numpy_weight<std::remove_const_t<std::ranges::range_value_t<W>>> ||
     detail::numpy_object_weight<std::remove_const_t<std::ranges::range_value_t<W>>>) &&
    std::is_same_v<std::remove_const_t<std::ranges::range_value_t<W>>,
                   std::ranges::range_value_t<S>> &&
    std::is_same_v < std::remove_const_t<std::ranges::range_value_t<B>>,
double > void numpy_histogram_of_edges_weighted(host_backend backend, const R& samples,
                                                const W& weights, S&& sums, const B& edges) {
  using T = detail::host_sample_t<R>;
  (void)backend;
  detail::check_weights("numpy_histogram_of_edges_weighted", samples, weights, sums);
  const std::span<const double> b = detail::host_span(edges);
  const int bins = detail::checked_numpy_edges_array("numpy_histogram_of_edges_weighted",
                                                     std::ranges::size(sums), b);
  const auto s = detail::host_span(samples);
  host_impl::weighted_histogram_of_edges(
      s.data(), std::ranges::data(weights), s.size(), std::ranges::data(sums), b.data(), bins,
      [](T x) { return static_cast<double>(detail::numpy_binner<T>::compared(x)); });
}

}  // namespace gpuprim
