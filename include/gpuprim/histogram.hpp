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
//  - histogram_range: boundaries has bins + 1 strictly increasing entries;
//    bin i holds [boundaries[i], boundaries[i + 1]).
//  - histogram: classify(x) returns a bin index (any integer type); a negative
//    or >= bins index means "not counted".
//  - Samples outside the range, NaNs, and samples the classifier rejects are
//    not counted; how many there were is returned ("left out").
//  - Bad arguments (no bins, lower >= upper, NaN or infinite levels,
//    boundaries of the wrong size or not increasing; for NumPy's rule also
//    edges that do not increase, numpy's "too many bins") throw
//    std::invalid_argument before anything is written.
// Synchronization, like gp::reduce / gp::reduce_into: the value-returning GPU
// forms wait for the result (they return the left-out count); the *_into
// forms only enqueue, writing the left-out count to a device std::uint64_t
// (or nowhere, when it is not given). histogram_range_into takes the
// boundaries in device memory and checks only their number (checking their
// order would cost a copy and a synchronization).
// From plain C++ the GPU backend is precompiled for histogram_even (both
// rules) and histogram_range over uint8, int32, uint32, float and double
// samples with uint32 / uint64 counters (detail::precompiled_histogram); custom
// classifiers need a .cu file that includes gpuprim/cuda/histogram.cuh.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/host/histogram.hpp"
#include "gpuprim/reduce.hpp"

namespace gpuprim {

// The type of histogram_even's lower / upper and histogram_range's
// boundaries: the sample type for floating samples, int64 for integers.
template <class T>
using histogram_level_t = std::conditional_t<std::is_floating_point_v<T>, T, std::int64_t>;

template <class T>
concept histogram_sample = std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                           (std::is_floating_point_v<T> || sizeof(T) <= 4);

template <class C>
concept histogram_counter = std::is_same_v<C, std::uint32_t> || std::is_same_v<C, std::uint64_t>;

// The lower edge of bin b (0 <= b <= bins) of histogram_even's `bins` even
// bins over [lower, upper) (the default rule): lower + (upper - lower) * b /
// bins, evaluated in double in that order, and exactly `upper` for b =
// bins; a floating sample x is in bin b exactly when edge(b) <= x <
// edge(b + 1).
namespace detail {

// lower + width * b / bins for b < bins, with the division by bins done as
// a multiply by its reciprocal (inverse = 1.0 / bins, rounded) and one
// fused correction: with a correctly rounded reciprocal that gives the
// correctly rounded quotient (Markstein's theorem), the same double as
// width * b / bins, at a few multiplies instead of a division (which on the
// GPU is a subroutine). tests/host/histogram_test.cpp checks it against the
// plain division.
GPUPRIM_HD inline double edge_by_reciprocal(double lower, double width, int bins, double inverse,
                                            int b) {
  const double p = width * b;
  const double q0 = p * inverse;
  return lower + fma(fma(-q0, double(bins), p), inverse, q0);
}

// The same edge on either side: the GPU multiplies by the reciprocal, the
// host divides (a few cycles there, where fma without FMA hardware is a
// library call).
GPUPRIM_HD inline double even_edge(double lower, double width, int bins, double inverse, int b) {
#if defined(__CUDA_ARCH__)
  return edge_by_reciprocal(lower, width, bins, inverse, b);
#else
  (void)inverse;
  return lower + width * b / bins;
#endif
}

}  // namespace detail

GPUPRIM_HD inline double histogram_even_edge(double lower, double upper, int bins, int b) {
  return b >= bins ? upper : detail::even_edge(lower, upper - lower, bins, 1.0 / bins, b);
}

namespace detail {

// Binners map a sample to its bin in [0, bins), or to -1 (not counted). They
// are small values copied into kernels.
//
// Floating samples: t = (x - lower) * (bins / (upper - lower)) in the
// sample's type estimates the bin. Its error is a few units in the last
// place of t, so when t's fraction is at least `margin` away from an
// integer, floor(t) is the bin of the exact edges and nothing more is done
// (the common case: one subtract, one multiply, two compares). Otherwise x
// is within rounding of an edge (or t is past the last bin), and one
// compare of x with that edge in double moves the bin by at most one.
// margin is twice the bound on t's error and the edges' own rounding, in
// units of bins; when it reaches 1/2 (bin counts near 2^31, or a range far
// from 0 relative to its width) the estimate may be off by more than a
// bin, and every sample searches the edges (bin_from_edges).
template <class T>
struct even_binner {
  using level = histogram_level_t<T>;
  level lower;
  level upper;
  int bins;
  // Floating samples: bins / (upper - lower) in T. Integers: upper - lower.
  std::conditional_t<std::is_floating_point_v<T>, T, std::uint64_t> scale;
  // Floating samples only: the fast path's margin, and for the edges
  // upper - lower, 1 / bins and bins / (upper - lower) in double.
  T margin{};
  T half_minus_margin{};
  double width = 0, inverse_bins = 0, scale_in_double = 0;

  even_binner() = default;
  even_binner(level lo, level hi, int num_bins) : lower(lo), upper(hi), bins(num_bins) {
    if constexpr (std::is_floating_point_v<T>) {
      scale = static_cast<T>(num_bins) / (hi - lo);
      width = double(hi) - double(lo);
      inverse_bins = 1.0 / num_bins;
      scale_in_double = num_bins / width;
      // t's relative error is at most 4 roundings, 2^-22 for float (x -
      // lower, upper - lower, the scale and the product) and 2^-51 for
      // double; an edge is off from the exact one by at most 2^-51 of
      // max(|lower|, |upper|). The margin is twice the larger, in bins.
      const double magnitude = std::fmax(std::fabs(double(lo)), std::fabs(double(hi)));
      const double spread = std::fmax(1.0, magnitude / width);
      const double unit = std::is_same_v<T, float> ? 0x1p-21 : 0x1p-44;
      const double m = double(num_bins) * spread * unit;
      margin = m < 0.5 ? static_cast<T>(m) : T(1);  // 1: no fraction passes, every sample is exact
      half_minus_margin = T(0.5) - margin;
    } else {
      scale = static_cast<std::uint64_t>(hi - lo);
    }
  }

  GPUPRIM_HD int operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (!(x >= lower && x < upper)) return -1;  // NaN fails both
      const T t = (x - lower) * scale;
      const int b = static_cast<int>(t);
      const T fraction = t - static_cast<T>(b);  // exact: b is t's integer part
      // At least margin from both ends of bin b: |fraction - 1/2| <= 1/2 - margin
      // (one compare; t past the last bin has a fraction near 0 and fails it).
      if (std::abs(fraction - T(0.5)) <= half_minus_margin) return b;
      if (margin < T(1)) {
        // t is within margin / 2 < 1/4 bin of the exact position, so one
        // compare with the nearer edge decides (inline and division-free:
        // a call or a loop here cost the kernel 15%).
        if (b >= bins) return bins - 1;
        if (fraction < T(0.5)) return double(x) < edge(b) ? b - 1 : b;
        return b + 1 < bins && double(x) >= edge(b + 1) ? b + 1 : b;
      }
      return bin_from_edges(x);
    } else {
      const auto v = static_cast<std::int64_t>(x);
      if (v < lower || v >= upper) return -1;
      // (v - lower) < 2^33 and bins < 2^31: the product fits in 64 bits.
      return static_cast<int>(static_cast<std::uint64_t>(v - lower) *
                              static_cast<std::uint64_t>(bins) / scale);
    }
  }

  // The lower edge of bin b < bins.
  GPUPRIM_HD double edge(int b) const { return even_edge(lower, width, bins, inverse_bins, b); }

  // The b with edge(b) <= x < edge(b + 1), for lower <= x < upper, when the
  // estimate in the sample's type may be off by more than a bin (bin counts
  // near 2^31, or a range far from 0 for its width): an estimate in double,
  // moved down or up while x is below its lower edge or not below its
  // upper one. Out of line on the GPU.
  GPUPRIM_HD GPUPRIM_NOINLINE int bin_from_edges(T sample) const {
    const double x = sample;
    double estimate = (x - double(lower)) * scale_in_double;
    estimate = estimate < 0 ? 0 : estimate;
    int b = estimate < double(bins - 1) ? static_cast<int>(estimate) : bins - 1;
    while (b > 0 && x < edge(b))
      --b;
    while (b + 1 < bins && x >= edge(b + 1))
      ++b;
    return b;
  }
};

// Bins between bins + 1 increasing boundaries (host or device memory, as the
// backend reads it).
template <class T>
struct range_binner {
  using level = histogram_level_t<T>;
  const level* boundaries;
  int bins;

  GPUPRIM_HD int operator()(T x) const {
    const level v = static_cast<level>(x);
    if (!(v >= boundaries[0] && v < boundaries[bins])) return -1;
    int lo = 0;  // boundaries[lo] <= v < boundaries[hi]
    int hi = bins;
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (boundaries[mid] <= v) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
};

// A user classifier: any integer it returns outside [0, bins) is "not counted".
template <class F>
struct classify_binner {
  F classify;
  int bins;

  template <class T>
  GPUPRIM_HD int operator()(const T& x) const {
    const auto b = classify(x);
    static_assert(std::is_integral_v<decltype(b)>,
                  "gpuprim::histogram: classify must return an "
                  "integer bin index");
    if constexpr (std::is_signed_v<decltype(b)>) {
      if (b < 0) return -1;
    }
    return static_cast<std::uint64_t>(b) < static_cast<std::uint64_t>(bins) ? static_cast<int>(b)
                                                                            : -1;
  }
};

#if GPUPRIM_HAS_CUDA
// Defined in gpuprim/cuda/device/device_histogram.cuh. Enqueues on `stream`:
// counts[0, bins) = the histogram of samples[0, n) under `binner`, and, when
// left_out is not null, *left_out = the number of samples it rejected.
template <class Sample, class Counter, class Binner>
void cuda_histogram_into(const Sample* samples, std::size_t n, Counter* counts, int bins,
                         Binner binner, std::uint64_t* left_out, stream_t stream);
#else
template <class Sample, class Counter, class Binner>
void cuda_histogram_into(const Sample*, std::size_t, Counter*, int, Binner, std::uint64_t*,
                         stream_t) {
  no_cuda_backend("histogram");
}
#endif

template <class T>
struct numpy_binner;

// The instantiations compiled into the library (src/histogram/*.cu).
template <class Sample, class Counter, class Binner>
inline constexpr bool precompiled_histogram =
    one_of<Sample, std::uint8_t, std::int32_t, std::uint32_t, float, double>&& histogram_counter<
        Counter>&& one_of<Binner, even_binner<Sample>, range_binner<Sample>, numpy_binner<Sample>>;

template <class Sample, class Counter, class Binner>
void cuda_histogram_checked(device_span<const Sample> samples, device_span<Counter> counts,
                            Binner binner, std::uint64_t* left_out, stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_histogram<Sample, Counter, Binner>,
                "gpuprim: this histogram's sample type / counter / classifier is not precompiled "
                "into the library; call it from a .cu file that includes "
                "gpuprim/cuda/histogram.cuh");
#endif
  cuda_histogram_into(samples.data(), samples.size(), counts.data(),
                      static_cast<int>(counts.size()), binner, left_out, stream);
}

inline std::string histogram_where(const char* algorithm) {
  return std::string("gpuprim::") + algorithm + ": ";
}

// The number of bins is counts.size(): at least 1, less than 2^31.
inline int checked_bins(const char* algorithm, std::size_t bins) {
  if (bins == 0) {
    throw std::invalid_argument(histogram_where(algorithm) +
                                "counts is empty (the number of bins is counts.size(), which "
                                "must be at least 1)");
  }
  if (bins > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument(histogram_where(algorithm) + "counts has " + std::to_string(bins) +
                                " bins; at most 2^31 - 1 are supported");
  }
  return static_cast<int>(bins);
}

template <class L>
std::string level_text(L v) {
  if constexpr (std::is_floating_point_v<L>) {
    if (std::isnan(v)) return "nan";
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
    return text;
  } else {
    return std::to_string(v);
  }
}

template <class L>
void check_level_is_number(const char* algorithm, const std::string& name, L v) {
  if constexpr (std::is_floating_point_v<L>) {
    if (std::isnan(v)) throw std::invalid_argument(histogram_where(algorithm) + name + " is NaN");
    if (std::isinf(v)) {
      throw std::invalid_argument(histogram_where(algorithm) + name + " is infinite (" +
                                  level_text(v) + "); levels must be finite");
    }
  }
}

template <class T>
even_binner<T> checked_even_binner(const char* algorithm, std::size_t num_bins,
                                   histogram_level_t<T> lower, histogram_level_t<T> upper) {
  const int bins = checked_bins(algorithm, num_bins);
  check_level_is_number(algorithm, "lower", lower);
  check_level_is_number(algorithm, "upper", upper);
  if (!(lower < upper)) {
    throw std::invalid_argument(histogram_where(algorithm) + "lower (" + level_text(lower) +
                                ") must be less than upper (" + level_text(upper) + ")");
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(upper - lower)) {
      throw std::invalid_argument(histogram_where(algorithm) + "upper - lower overflows (" +
                                  level_text(lower) + " to " + level_text(upper) + ")");
    }
  } else {
    // Integer samples are at most 32 bits wide: levels beyond +-2^33 only
    // make empty bins, and keep the bin arithmetic within 64 bits.
    constexpr std::int64_t limit = std::int64_t{1} << 33;
    if (lower < -limit || upper > limit) {
      throw std::invalid_argument(histogram_where(algorithm) +
                                  "levels of integer samples must lie "
                                  "in [-2^33, 2^33] (got " +
                                  level_text(lower) + " to " + level_text(upper) + ")");
    }
  }
  return even_binner<T>(lower, upper, bins);
}

// bins + 1 entries, numbers, strictly increasing.
template <class L>
int checked_boundaries(const char* algorithm, std::size_t num_bins, std::span<const L> boundaries) {
  const int bins = checked_bins(algorithm, num_bins);
  if (boundaries.size() != num_bins + 1) {
    throw std::invalid_argument(
        histogram_where(algorithm) + "boundaries has " + std::to_string(boundaries.size()) +
        " entries; " + std::to_string(num_bins) + " bins need " + std::to_string(num_bins + 1));
  }
  for (std::size_t i = 0; i < boundaries.size(); ++i) {
    check_level_is_number(algorithm, "boundaries[" + std::to_string(i) + "]", boundaries[i]);
    if (i > 0 && !(boundaries[i - 1] < boundaries[i])) {
      throw std::invalid_argument(
          histogram_where(algorithm) + "boundaries must increase: boundaries[" +
          std::to_string(i - 1) + "] = " + level_text(boundaries[i - 1]) +
          " is not less than boundaries[" + std::to_string(i) + "] = " + level_text(boundaries[i]));
    }
  }
  return bins;
}

}  // namespace detail

// ---- the NumPy rule: numpy.histogram's even bins ---------------------------

// NumPy's floating types, as they take part in numpy.histogram's even bins:
// the type of the edges (the data's: float64 for integer data) and the type
// np.linspace computes them in.
enum class numpy_float : unsigned char { float16, float32, float64 };

// The numpy_float of data of type D (gp::half for float16; float64 for
// integers, whose edges numpy makes float64).
template <class D>
constexpr numpy_float numpy_float_of() {
  if constexpr (std::is_same_v<D, half>) {
    return numpy_float::float16;
  } else if constexpr (std::is_same_v<D, float>) {
    return numpy_float::float32;
  } else {
    static_assert(std::is_arithmetic_v<D>, "numpy_float_of: a number type or gp::half");
    return numpy_float::float64;
  }
}

// The even bins numpy.histogram(a, bins, range) makes: edge b of `bins` is
// np.linspace(lower, upper, bins + 1)[b] computed in `arithmetic`
// (lower + b * ((upper - lower) / bins), each operation rounded to that
// type, the last edge `upper`), then rounded to `edges`. A sample x, compared
// in the edges' type, lands in bin b when edge(b) <= x < edge(b + 1); the
// last bin also holds x == edge(bins); anything else is left out. Build one
// with the helpers, which follow numpy's _get_outer_edges:
//   numpy_bins::with_range<float>(0, 1)   // np.histogram(a_f32, n, range=(0, 1))
//   numpy_bins::of_data<float>(mn, mx)    // np.histogram(a_f32, n): [a.min(), a.max()]
//   numpy_bins::of_empty<float>()         // np.histogram(empty_f32, n): (0, 1)
// (D = gp::half for float16 data, whose samples are passed as float.)
struct numpy_bins {
  double lower = 0;  // lower and upper are values of `arithmetic`
  double upper = 1;
  numpy_float arithmetic = numpy_float::float64;
  numpy_float edges = numpy_float::float64;

  // A given range (Python numbers): linspace in float64. Throws
  // std::invalid_argument when lo > hi or either is not finite; lo == hi
  // widens to [lo - 0.5, hi + 0.5].
  template <class D>
  static numpy_bins with_range(double lo, double hi);
  // The default range [min, max] of non-empty data of type D: linspace in
  // D's type for floating data (float64 for integers); min == max widens by
  // 0.5 in that type. Throws std::invalid_argument when min or max is not
  // finite (numpy's "autodetected range ... is not finite").
  template <class D>
  static numpy_bins of_data(D min, D max);
  // Empty data without a range: (0, 1), linspace in float64.
  template <class D>
  static numpy_bins of_empty() {
    return {0, 1, numpy_float::float64, numpy_float_of<D>()};
  }
};

namespace detail {

// x rounded to the nearest binary16 value (ties to even), as a double:
// beyond the largest finite half (65504) from 65520 on, infinity.
GPUPRIM_HD inline double round_to_half(double x) {
  if (!(x < 65520.0 && x > -65520.0)) return x != x ? x : (x > 0 ? HUGE_VAL : -HUGE_VAL);
  int e = 0;
  (void)frexp(x, &e);                         // |x| in [2^(e-1), 2^e)
  const int q = e - 11 > -24 ? e - 11 : -24;  // the quantum's exponent (11 bits, subnormals 2^-24)
  return ldexp(rint(ldexp(x, -q)), q);        // both ldexp are exact
}

GPUPRIM_HD inline double round_to(numpy_float type, double x) {
  switch (type) {
    case numpy_float::float16:
      return round_to_half(x);
    case numpy_float::float32:
      return static_cast<double>(static_cast<float>(x));
    default:
      return x;
  }
}

// One IEEE operation on doubles, rounded once (never fused with the next).
// For operands of float32 or float16 arithmetic the double result rounded
// to that type is the correctly rounded float32 / float16 result (the
// double rounding is innocuous: 53 >= 2 * 24 + 2).
GPUPRIM_HD inline double linspace_mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  volatile double p = a * b;  // a volatile store keeps the compiler from fusing it
  return p;
#endif
}
GPUPRIM_HD inline double linspace_add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  volatile double s = a + b;
  return s;
#endif
}
GPUPRIM_HD inline double linspace_div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  volatile double q = a / b;
  return q;
#endif
}

// np.linspace(lower, upper, bins + 1) rounded to the edges' type, one edge
// at a time, operation by operation as numpy computes it: y = arange(bins +
// 1) in the arithmetic's type; step = (upper - lower) / bins; y = y * step
// (when step is 0, y / bins * (upper - lower)); y + lower; the last y is
// upper; then y rounded to the edges' type.
struct numpy_edge_rule {
  double start = 0, stop = 1, delta = 1, step = 1;  // values of `arithmetic`
  int bins = 1;
  numpy_float arithmetic = numpy_float::float64;
  numpy_float edges = numpy_float::float64;
  bool step_is_zero = false;

  numpy_edge_rule() = default;
  numpy_edge_rule(const numpy_bins& b, int num_bins)
      : bins(num_bins), arithmetic(b.arithmetic), edges(b.edges) {
    start = round_to(arithmetic, b.lower);
    stop = round_to(arithmetic, b.upper);
    delta = round_to(arithmetic, linspace_add(stop, -start));
    step = round_to(arithmetic, linspace_div(delta, round_to(arithmetic, num_bins)));
    step_is_zero = step == 0;
  }

  // Edge b, 0 <= b <= bins, as a double (exactly a value of `edges`), each
  // operation rounded to the arithmetic's type. Out of line on the GPU.
  GPUPRIM_HD GPUPRIM_NOINLINE double operator()(int b) const {
    if (b >= bins) return round_to(edges, stop);
    const double i = round_to(arithmetic, b);
    const double scaled =
        step_is_zero
            ? round_to(
                  arithmetic,
                  linspace_mul(round_to(arithmetic, linspace_div(i, round_to(arithmetic, bins))),
                               delta))
            : round_to(arithmetic, linspace_mul(i, step));
    return round_to(edges, round_to(arithmetic, linspace_add(scaled, start)));
  }
};

// The NumPy rule's binner. Samples are compared in K: the sample type for
// floating samples, double for integers (numpy compares integer data as
// float64). The common path is the even binner's: t = (x - first) * scale
// in K, and floor(t) is the bin when t's fraction is at least `margin` from
// both ends, margin being twice the bound on t's error plus the largest
// distance (in bins) of an edge from the exact even grid between the first
// and last edges (measured over all edges when the binner is made). Near an
// edge, one compare in K with that edge, recomputed by numpy's arithmetic,
// moves the bin by at most one; when the margin reaches 1/2 (edges far off
// an even grid) every such sample searches the edges. Both are out of line
// (near_edge_bin): inline, the edge arithmetic took the float kernels from
// 58 to 71-74 registers on sm_90 (4 to 3 resident blocks of 256 threads),
// for a path that 1024 bins over [0.5, 1.5) take for about 0.1% of samples.
template <class T>
struct numpy_binner {
  using K = std::conditional_t<std::is_floating_point_v<T>, T, double>;
  K first{}, last{};
  K scale{};  // bins / (last - first); 0 when every sample near an edge searches
  K half_minus_margin{};
  int bins = 1;
  bool search = false;
  // The edges' arithmetic is float64, or float32 with float32 edges, the
  // edges are of type K and the step is not 0: plain_edge computes them.
  bool plain_edges = false;
  bool float_arithmetic = false;
  numpy_edge_rule edge;

  GPUPRIM_HD int operator()(T sample) const {
    const K x = static_cast<K>(sample);
    if (!(x >= first && x <= last)) return -1;  // NaN fails both
    // t < 2^31: below bins + 1 unless scale is 0 (the margin bounds bins).
    const K t = (x - first) * scale;
    const int b = static_cast<int>(t);
    const K fraction = t - static_cast<K>(b);  // exact: b is t's integer part
    if (std::abs(fraction - K(0.5)) <= half_minus_margin) return b;
    // The common specs compute the one edge inline (a call in the
    // kernel's loop cost it about a fifth of its throughput).
    if (plain_edges) return across_edge(x, b, fraction, [this](int e) { return plain_edge(e); });
    return near_edge_bin(x, b, fraction);
  }

  // Near an edge: the one edge x may be on the wrong side of is b's lower
  // edge for a fraction below 1/2, else its upper one (none at 0 and bins:
  // x lies in [first, last] and the last bin is closed); edge_of(e) is edge
  // e in K.
  template <class EdgeOf>
  GPUPRIM_HD int across_edge(K x, int b, K fraction, EdgeOf edge_of) const {
    if (b >= bins) return bins - 1;  // x == last, or t rounded up to bins
    const int e = fraction < K(0.5) ? b : b + 1;
    if (e == 0 || e >= bins) return b;
    return x < edge_of(e) ? e - 1 : e;
  }

  // Edge e (0 < e < bins) when plain_edges: numpy's y = e * step + start,
  // each operation rounded once, in float64 arithmetic, or in float32
  // arithmetic for float32 edges (float32 data over its own min and max).
  GPUPRIM_HD K plain_edge(int e) const {
    const double scaled = linspace_mul(static_cast<double>(e), edge.step);
    const double y = float_arithmetic ? static_cast<double>(static_cast<float>(scaled)) : scaled;
    const double sum = linspace_add(y, edge.start);
    return static_cast<K>(float_arithmetic ? static_cast<double>(static_cast<float>(sum)) : sum);
  }

  // The other specs, out of line: the edge by numpy's full arithmetic
  // (numpy_edge_rule), or the search.
  GPUPRIM_HD GPUPRIM_NOINLINE int near_edge_bin(K x, int b, K fraction) const {
    if (search) return bin_by_search(x);
    return across_edge(x, b, fraction, [this](int e) { return static_cast<K>(edge(e)); });
  }

  // The b with edge(b) <= x < edge(b + 1) (b = bins - 1 for x == last), for
  // first <= x <= last, by bisection over the edges.
  GPUPRIM_HD int bin_by_search(K x) const {
    int lo = 0, hi = bins;  // edge(lo) <= x, and x < edge(hi) unless hi == bins
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (static_cast<K>(edge(mid)) <= x) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
};

inline const char* numpy_float_name(numpy_float type) {
  switch (type) {
    case numpy_float::float16:
      return "float16";
    case numpy_float::float32:
      return "float32";
    default:
      return "float64";
  }
}

inline std::string number_text(double v) {
  if (v != v) return "nan";
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// Checks a numpy_bins for `num_bins` bins and calls edge_seen(b, edge) for
// every edge in order; throws std::invalid_argument (numpy's ValueError)
// when the bounds are not finite or two consecutive edges are not
// increasing ("too many bins for the data range").
template <class F>
numpy_edge_rule checked_numpy_edges(const char* algorithm, int bins, const numpy_bins& spec,
                                    F&& edge_seen) {
  if (!std::isfinite(spec.lower) || !std::isfinite(spec.upper)) {
    throw std::invalid_argument(histogram_where(algorithm) + "the range [" +
                                number_text(spec.lower) + ", " + number_text(spec.upper) +
                                "] is not finite");
  }
  const numpy_edge_rule rule(spec, bins);
  double previous = rule(0);
  edge_seen(0, previous);
  for (int b = 1; b <= bins; ++b) {
    const double e = rule(b);
    if (!(previous < e)) {
      throw std::invalid_argument(
          histogram_where(algorithm) + "too many bins for the data range: cannot make " +
          std::to_string(bins) + " bins of nonzero width over [" + number_text(spec.lower) + ", " +
          number_text(spec.upper) + "] with " + numpy_float_name(spec.edges) + " edges (edge " +
          std::to_string(b - 1) + " = " + number_text(previous) + ", edge " + std::to_string(b) +
          " = " + number_text(e) + ")");
    }
    edge_seen(b, e);
    previous = e;
  }
  return rule;
}

template <class T>
numpy_binner<T> checked_numpy_binner(const char* algorithm, std::size_t num_bins,
                                     const numpy_bins& spec) {
  using K = typename numpy_binner<T>::K;
  const int bins = checked_bins(algorithm, num_bins);
  if constexpr (std::is_same_v<K, float>) {
    if (spec.edges == numpy_float::float64) {
      throw std::invalid_argument(histogram_where(algorithm) +
                                  "float samples cannot be compared with float64 edges (numpy "
                                  "compares in the edges' type: pass the samples as double)");
    }
  } else if constexpr (!std::is_floating_point_v<T>) {
    if (spec.edges != numpy_float::float64) {
      throw std::invalid_argument(histogram_where(algorithm) +
                                  "integer samples have float64 edges in numpy (got " +
                                  numpy_float_name(spec.edges) + ")");
    }
  }
  // The edges' largest distance from the even grid between the first and
  // last edges, in bins (evaluated in double: a few units of 2^-53 * bins).
  const numpy_edge_rule grid(spec, bins);
  const double first = grid(0), grid_scale = bins / (grid(bins) - first);
  double off_grid = 0;
  const numpy_edge_rule rule = checked_numpy_edges(algorithm, bins, spec, [&](int b, double e) {
    const double off = std::fabs((e - first) * grid_scale - b);
    off_grid = off > off_grid ? off : off_grid;
  });
  numpy_binner<T> binner;
  binner.bins = bins;
  binner.edge = rule;
  binner.first = static_cast<K>(rule(0));
  binner.last = static_cast<K>(rule(bins));
  binner.scale = static_cast<K>(static_cast<K>(bins) / (binner.last - binner.first));
  // t's relative error: at most 5 roundings in K (x - first, K(bins),
  // last - first, the quotient, the product), bounded by 8 units.
  const double unit = std::is_same_v<K, float> ? 0x1p-24 : 0x1p-53;
  const double t_error = 8 * unit * bins + 8 * 0x1p-53 * bins;
  const double margin = 2 * (off_grid + t_error);
  // A range whose width overflows K leaves t meaningless: search.
  const bool t_is_usable =
      std::isfinite(binner.last - binner.first) && std::isfinite(binner.scale) && binner.scale > 0;
  if (!(margin < 0.5) || !t_is_usable) {
    binner.search = true;
    binner.scale = K(0);               // t = 0: the fast path's test fails for every sample
    binner.half_minus_margin = K(-1);  // no fraction passes: every sample searches
  } else {
    binner.half_minus_margin = static_cast<K>(0.5 - margin);
    const numpy_float k_type =
        std::is_same_v<K, float> ? numpy_float::float32 : numpy_float::float64;
    binner.float_arithmetic = spec.arithmetic == numpy_float::float32;
    binner.plain_edges = !rule.step_is_zero && spec.edges == k_type &&
                         (spec.arithmetic == numpy_float::float64 ||
                          (binner.float_arithmetic && k_type == numpy_float::float32));
  }
  return binner;
}

// checked_numpy_binner, remembering the last binner made on this thread for
// each sample type: a loop of calls with the same bins costs the O(bins)
// edge check once.
template <class T>
numpy_binner<T> numpy_binner_for(const char* algorithm, std::size_t num_bins,
                                 const numpy_bins& spec) {
  struct last_binner {
    bool valid = false;
    std::size_t bins = 0;
    numpy_bins spec;
    numpy_binner<T> binner;
  };
  thread_local last_binner last;
  if (!(last.valid && last.bins == num_bins && last.spec.lower == spec.lower &&
        last.spec.upper == spec.upper && last.spec.arithmetic == spec.arithmetic &&
        last.spec.edges == spec.edges)) {
    last.valid = false;
    last.binner = checked_numpy_binner<T>(algorithm, num_bins, spec);
    last.bins = num_bins;
    last.spec = spec;
    last.valid = true;
  }
  return last.binner;
}

}  // namespace detail

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
  const auto where = detail::histogram_where("numpy_bins");
  if (lo > hi) {
    throw std::invalid_argument(where + "range [" + detail::number_text(lo) + ", " +
                                detail::number_text(hi) + "]: max must be larger than min");
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    throw std::invalid_argument(where + "supplied range of [" + detail::number_text(lo) + ", " +
                                detail::number_text(hi) + "] is not finite");
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
    throw std::invalid_argument(detail::histogram_where("numpy_bins") + "autodetected range of [" +
                                detail::number_text(lo) + ", " + detail::number_text(hi) +
                                "] is not finite");
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

namespace detail {

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

}  // namespace detail

// ---- histogram_even -------------------------------------------------------

template <host_range R, detail::histogram_host_counts C>
requires histogram_sample<detail::host_sample_t<R>> std::uint64_t histogram_even(
    host_backend backend, const R& samples, C&& counts,
    std::type_identity_t<histogram_level_t<detail::host_sample_t<R>>> lower,
    std::type_identity_t<histogram_level_t<detail::host_sample_t<R>>> upper) {
  using T = detail::host_sample_t<R>;
  const auto binner =
      detail::checked_even_binner<T>("histogram_even", std::ranges::size(counts), lower, upper);
  const auto s = detail::host_span(samples);
  return host_detail::histogram(backend, s.data(), s.size(), std::ranges::data(counts), binner.bins,
                                binner);
}

template <device_range R, detail::histogram_device_counts C>
requires histogram_sample<detail::device_sample_t<R>> std::uint64_t histogram_even(
    cuda_backend backend, const R& samples, C&& counts,
    std::type_identity_t<histogram_level_t<detail::device_sample_t<R>>> lower,
    std::type_identity_t<histogram_level_t<detail::device_sample_t<R>>> upper) {
  using T = detail::device_sample_t<R>;
  auto c = writable_device_span(counts);
  const auto binner = detail::checked_even_binner<T>("histogram_even", c.size(), lower, upper);
  device_span<const T> s = as_device_span(samples);
  return detail::cuda_histogram_to_host(backend, s, c, binner);
}

// Asynchronous: enqueues on the backend's stream; left_out[0] (device memory)
// receives the left-out count when given.
template <device_range R, detail::histogram_device_counts C>
requires histogram_sample<detail::device_sample_t<R>>
void histogram_even_into(cuda_backend backend, const R& samples, C&& counts,
                         std::type_identity_t<histogram_level_t<detail::device_sample_t<R>>> lower,
                         std::type_identity_t<histogram_level_t<detail::device_sample_t<R>>> upper,
                         device_span<std::uint64_t> left_out = {}) {
  using T = detail::device_sample_t<R>;
  auto c = writable_device_span(counts);
  const auto binner = detail::checked_even_binner<T>("histogram_even_into", c.size(), lower, upper);
  std::uint64_t* out = detail::left_out_pointer("histogram_even_into", left_out);
  device_span<const T> s = as_device_span(samples);
  detail::cuda_histogram_checked(s, c, binner, out, backend.stream);
}

// The NumPy rule (numpy_bins): numpy.histogram's edges and bins, the last
// bin closed.
template <host_range R, detail::histogram_host_counts C>
requires histogram_sample<detail::host_sample_t<R>> std::uint64_t histogram_even(
    host_backend backend, const R& samples, C&& counts, const numpy_bins& bins) {
  using T = detail::host_sample_t<R>;
  const auto binner =
      detail::numpy_binner_for<T>("histogram_even", std::ranges::size(counts), bins);
  const auto s = detail::host_span(samples);
  return host_detail::histogram(backend, s.data(), s.size(), std::ranges::data(counts), binner.bins,
                                binner);
}

template <device_range R, detail::histogram_device_counts C>
requires histogram_sample<detail::device_sample_t<R>> std::uint64_t histogram_even(
    cuda_backend backend, const R& samples, C&& counts, const numpy_bins& bins) {
  using T = detail::device_sample_t<R>;
  auto c = writable_device_span(counts);
  const auto binner = detail::numpy_binner_for<T>("histogram_even", c.size(), bins);
  device_span<const T> s = as_device_span(samples);
  return detail::cuda_histogram_to_host(backend, s, c, binner);
}

template <device_range R, detail::histogram_device_counts C>
requires histogram_sample<detail::device_sample_t<R>>
void histogram_even_into(cuda_backend backend, const R& samples, C&& counts, const numpy_bins& bins,
                         device_span<std::uint64_t> left_out = {}) {
  using T = detail::device_sample_t<R>;
  auto c = writable_device_span(counts);
  const auto binner = detail::numpy_binner_for<T>("histogram_even_into", c.size(), bins);
  std::uint64_t* out = detail::left_out_pointer("histogram_even_into", left_out);
  device_span<const T> s = as_device_span(samples);
  detail::cuda_histogram_checked(s, c, binner, out, backend.stream);
}

// ---- histogram_range ------------------------------------------------------

template <host_range R, detail::histogram_host_counts C, host_range B>
requires histogram_sample<detail::host_sample_t<R>> &&
    std::is_same_v<std::ranges::range_value_t<B>, histogram_level_t<detail::host_sample_t<R>>>
        std::uint64_t histogram_range(host_backend backend, const R& samples, C&& counts,
                                      const B& boundaries) {
  using T = detail::host_sample_t<R>;
  const auto b = detail::host_span(boundaries);
  const int bins = detail::checked_boundaries("histogram_range", std::ranges::size(counts), b);
  const auto s = detail::host_span(samples);
  return host_detail::histogram(backend, s.data(), s.size(), std::ranges::data(counts), bins,
                                detail::range_binner<T>{b.data(), bins});
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
  auto c = writable_device_span(counts);
  device_span<const histogram_level_t<T>> b = as_device_span(boundaries);
  const int bins = detail::checked_bins("histogram_range_into", c.size());
  if (b.size() != c.size() + 1) {
    throw std::invalid_argument("gpuprim::histogram_range_into: boundaries has " +
                                std::to_string(b.size()) + " entries; " + std::to_string(c.size()) +
                                " bins need " + std::to_string(c.size() + 1));
  }
  std::uint64_t* out = detail::left_out_pointer("histogram_range_into", left_out);
  device_span<const T> s = as_device_span(samples);
  detail::cuda_histogram_checked(s, c, detail::range_binner<T>{b.data(), bins}, out,
                                 backend.stream);
}

// ---- histogram (user classifier) -------------------------------------------

template <host_range R, detail::histogram_host_counts C, class Classify>
std::uint64_t histogram(host_backend backend, const R& samples, C&& counts, Classify classify) {
  const int bins = detail::checked_bins("histogram", std::ranges::size(counts));
  const auto s = detail::host_span(samples);
  return host_detail::histogram(backend, s.data(), s.size(), std::ranges::data(counts), bins,
                                detail::classify_binner<Classify>{classify, bins});
}

template <device_range R, detail::histogram_device_counts C, class Classify>
std::uint64_t histogram(cuda_backend backend, const R& samples, C&& counts, Classify classify) {
  using T = detail::device_sample_t<R>;
  auto c = writable_device_span(counts);
  const int bins = detail::checked_bins("histogram", c.size());
  device_span<const T> s = as_device_span(samples);
  return detail::cuda_histogram_to_host(backend, s, c,
                                        detail::classify_binner<Classify>{classify, bins});
}

template <device_range R, detail::histogram_device_counts C, class Classify>
void histogram_into(cuda_backend backend, const R& samples, C&& counts, Classify classify,
                    device_span<std::uint64_t> left_out = {}) {
  using T = detail::device_sample_t<R>;
  auto c = writable_device_span(counts);
  const int bins = detail::checked_bins("histogram_into", c.size());
  std::uint64_t* out = detail::left_out_pointer("histogram_into", left_out);
  device_span<const T> s = as_device_span(samples);
  detail::cuda_histogram_checked(s, c, detail::classify_binner<Classify>{classify, bins}, out,
                                 backend.stream);
}

}  // namespace gpuprim
