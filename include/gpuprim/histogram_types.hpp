// The histogram family's public vocabulary (documented with the functions in
// gpuprim/histogram.hpp, the header to include): the levels' type, the
// sample and counter concepts, numpy_bins (NumPy's even bins) and
// numpy_range. The binners and the NumPy rule in detail/histogram/ are
// built on them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/low_precision.hpp"

namespace gpuprim {

// The type of histogram_even's lower / upper and histogram_range's
// boundaries: the sample type for floating samples, int64 for integers.
template <class T>
using histogram_level_t = std::conditional_t<std::is_floating_point_v<T>, T, std::int64_t>;

template <class T>
concept histogram_sample = std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                           (std::is_floating_point_v<T> || sizeof(T) <= 4);

// The samples NumPy's rule takes on the host: every number type but bool
// (64-bit integers are compared as float64, as numpy compares them), and
// gp::half for float16 data. The GPU takes the precompiled ones from plain
// C++ (histogram_sample types).
template <class T>
concept numpy_histogram_sample =
    (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, half>;

template <class C>
concept histogram_counter = std::is_same_v<C, std::uint32_t> || std::is_same_v<C, std::uint64_t>;

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
  // std::invalid_argument when lo > hi ("max must be larger than min in
  // range parameter.") or either is not finite; lo == hi widens to
  // [lo - 0.5, hi + 0.5].
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

// What NumPy's rule throws for bad arguments or data: a
// std::invalid_argument whose what() is "gpuprim::<function>: <reason>",
// and reason() alone, in NumPy's words where numpy.histogram raises the
// same ValueError ("Too many bins for data range. ..."), for callers that
// name the input themselves (the CLI names the file, Python raises
// ValueError(reason)).
class histogram_argument_error : public std::invalid_argument {
 public:
  histogram_argument_error(const char* function, const std::string& reason)
      : std::invalid_argument(std::string("gpuprim::") + function + ": " + reason),
        prefix_(std::char_traits<char>::length(function) + 11) {}
  const char* reason() const noexcept { return what() + prefix_; }

 private:
  std::size_t prefix_;  // "gpuprim::" + function + ": "
};

// numpy.histogram's `range=(lower, upper)`. Python numbers make np.linspace
// compute the edges in float64; NumPy float32 / float16 scalars (values of
// that type) in their own type, `arithmetic` (np.result_type(lower,
// upper, 1.0)), which also widens lower == upper by 0.5 in that type.
struct numpy_range {
  double lower = 0;
  double upper = 1;
  numpy_float arithmetic = numpy_float::float64;
};

}  // namespace gpuprim
