// numpy.histogram's even bins on both backends: the edges np.linspace makes
// in the data's floating type, their checks, and numpy_binner, which bins a
// sample exactly as NumPy compares it with those edges.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/enum_name.hpp"
#include "gpuprim/detail/histogram/binners.hpp"

namespace gpuprim::detail {

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
template <char Op>
GPUPRIM_HD inline double linspace_op(double a, double b) {
#if defined(__CUDA_ARCH__)
  if constexpr (Op == '*') {
    return __dmul_rn(a, b);
  } else if constexpr (Op == '+') {
    return __dadd_rn(a, b);
  } else {
    return __ddiv_rn(a, b);
  }
#else
  // A volatile store keeps the compiler from fusing it with the next one.
  volatile double r = Op == '*' ? a * b : Op == '+' ? a + b : a / b;
  return r;
#endif
}
GPUPRIM_HD inline double linspace_mul(double a, double b) {
  return linspace_op<'*'>(a, b);
}
GPUPRIM_HD inline double linspace_add(double a, double b) {
  return linspace_op<'+'>(a, b);
}
GPUPRIM_HD inline double linspace_div(double a, double b) {
  return linspace_op<'/'>(a, b);
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

  // A sample as it is compared with the edges (float16 through float,
  // exactly: its edges are float16 values too).
  static GPUPRIM_HD K compared(T sample) {
    if constexpr (std::is_same_v<T, half>) {
      return static_cast<K>(static_cast<float>(sample));
    } else {
      return static_cast<K>(sample);
    }
  }

  GPUPRIM_HD int operator()(T sample) const {
    const K x = compared(sample);
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

// numpy.histogram(a, bins=edges) for an array of bins + 1 non-decreasing
// edges (float64; host or device memory, as the backend reads it): x,
// compared as a double, goes to the last bin b with edges[b] <= x, the
// last bin also holding x == edges[bins] (numpy's searchsorted 'left' on
// every edge but the last, 'right' on it); outside or NaN: not counted. A
// zero-width bin (two equal edges) holds nothing.
template <class T>
struct numpy_edges_binner {
  const double* edges;
  int bins;

  GPUPRIM_HD int operator()(T sample) const {
    const double x = static_cast<double>(numpy_binner<T>::compared(sample));
    if (!(x >= edges[0] && x <= edges[bins])) return -1;  // NaN fails both
    return bin_among_edges(edges, bins, x);
  }
};

inline const char* numpy_float_name(numpy_float type) {
  static constexpr const char* names[] = {"float16", "float32", "float64"};
  return enum_name(type, names, "float64");
}

// The shortest text that reads back as v ("1e+308", "0.1", "inf", "nan").
inline std::string number_text(double v) {
  if (v != v) return "nan";
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, v).ptr);
}

// Checks a numpy_bins for `num_bins` bins and calls edge_seen(b, edge) for
// every edge in order; throws histogram_argument_error when the bounds are
// not finite or two consecutive edges do not increase: numpy's "Too many
// bins for data range" (numpy raises it when an edge is >= the next; an
// edge that is NaN, from a width that overflows, is refused here too, where
// numpy goes on to an IndexError or a NaN edge).
template <class F>
numpy_edge_rule checked_numpy_edges(const char* algorithm, int bins, const numpy_bins& spec,
                                    F&& edge_seen) {
  if (!std::isfinite(spec.lower) || !std::isfinite(spec.upper)) {
    throw histogram_argument_error(algorithm, "the range [" + number_text(spec.lower) + ", " +
                                                  number_text(spec.upper) + "] is not finite");
  }
  const numpy_edge_rule rule(spec, bins);
  double previous = rule(0);
  edge_seen(0, previous);
  for (int b = 1; b <= bins; ++b) {
    const double e = rule(b);
    if (!(previous < e)) {
      throw histogram_argument_error(
          algorithm, "Too many bins for data range. Cannot create " + std::to_string(bins) +
                         " finite-sized bins (" + numpy_float_name(spec.edges) + " edges over [" +
                         number_text(spec.lower) + ", " + number_text(spec.upper) + "]: edge " +
                         std::to_string(b - 1) + " = " + number_text(previous) + ", edge " +
                         std::to_string(b) + " = " + number_text(e) + ")");
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
      throw histogram_argument_error(algorithm,
                                     "float samples cannot be compared with float64 edges (numpy "
                                     "compares in the edges' type: pass the samples as double)");
    }
  } else if constexpr (std::is_same_v<T, half>) {
    if (spec.edges != numpy_float::float16) {
      throw histogram_argument_error(algorithm, std::string("float16 samples have float16 edges "
                                                            "in numpy (got ") +
                                                    numpy_float_name(spec.edges) + ")");
    }
  } else if constexpr (std::is_integral_v<T>) {
    if (spec.edges != numpy_float::float64) {
      throw histogram_argument_error(algorithm, std::string("integer samples have float64 edges "
                                                            "in numpy (got ") +
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

// numpy_histogram's edges output: bins + 1 values of E, float holding
// float32 or float16 edges exactly, double any.
template <class E>
void check_numpy_edges_output(const char* algorithm, std::size_t size, std::size_t bins,
                              const numpy_bins& spec) {
  static_assert(std::is_same_v<E, float> || std::is_same_v<E, double>,
                "gpuprim::numpy_histogram: the edges are float or double");
  if (size != bins + 1) {
    throw histogram_argument_error(algorithm, "edges has " + std::to_string(size) + " entries; " +
                                                  std::to_string(bins) + " bins have " +
                                                  std::to_string(bins + 1) + " edges");
  }
  if (std::is_same_v<E, float> && spec.edges == numpy_float::float64) {
    throw histogram_argument_error(algorithm, "float64 edges do not fit a float edges array");
  }
}

// The numpy_bins of numpy.histogram(samples of type D, bins, range): the
// given range, (0, 1) for no samples, else [min, max] of the samples, which
// extremes() returns as a pair of D (NaN when a sample is NaN).
template <class D, class Extremes>
numpy_bins numpy_bins_for(const std::optional<numpy_range>& range, std::size_t samples,
                          Extremes extremes) {
  if (range) {
    numpy_bins b = numpy_bins::with_range<D>(range->lower, range->upper);
    if (range->arithmetic != numpy_float::float64) {
      b.arithmetic = range->arithmetic;
      if (range->lower == range->upper) {
        b.lower = round_to(b.arithmetic, range->lower - 0.5);
        b.upper = round_to(b.arithmetic, range->upper + 0.5);
      }
    }
    return b;
  }
  if (samples == 0) return numpy_bins::of_empty<D>();
  const auto [min, max] = extremes();
  return numpy_bins::of_data<D>(min, max);
}

// The edges of numpy_edges_binner: bins + 1 numbers, none below the one
// before (numpy's check; NaN passes it, as in numpy).
inline int checked_numpy_edges_array(const char* algorithm, std::size_t num_bins,
                                     std::span<const double> edges) {
  const int bins = checked_bins(algorithm, num_bins);
  if (edges.size() != num_bins + 1) {
    throw histogram_argument_error(algorithm, "edges has " + std::to_string(edges.size()) +
                                                  " entries; " + std::to_string(num_bins) +
                                                  " bins need " + std::to_string(num_bins + 1));
  }
  for (std::size_t i = 1; i < edges.size(); ++i) {
    if (edges[i] < edges[i - 1]) {
      throw histogram_argument_error(algorithm,
                                     "`bins` must increase monotonically, when an "
                                     "array (edge " +
                                         std::to_string(i - 1) + " = " + number_text(edges[i - 1]) +
                                         ", edge " + std::to_string(i) + " = " +
                                         number_text(edges[i]) + ")");
    }
  }
  return bins;
}

}  // namespace gpuprim::detail
