// What `gpuprim histogram` prints, shared by the one-process command
// (cmd_histogram.cpp) and its --distributed form (dist_cli.cpp): the edges
// as text in their own type, the printed result; and the file's values
// widened to a type the backend bins where the library takes not the
// file's own. The bins themselves are the library's (gp::numpy_bins,
// gp::numpy_histogram_bins).
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/histogram.hpp"

namespace gpuprim::cli {

// A value of the file's dtype D (gp::half for float16) as a number to compare.
template <class D>
auto histogram_number(D v) {
  if constexpr (std::is_same_v<D, half>) {
    return static_cast<float>(v);
  } else {
    return v;
  }
}

// A type the library bins on every backend holding the values of dtype D:
// 8- and 16-bit integers as int32, 64-bit integers as float64 (as numpy
// compares them), float16 as float32; uint8, uint32, int32, float32 and
// float64 as themselves. (bool is read as uint8 before.)
template <class D>
using histogram_sample_t = std::conditional_t<
    std::is_same_v<D, std::uint8_t> || std::is_same_v<D, std::uint32_t>, D,
    std::conditional_t<std::is_integral_v<D> && sizeof(D) <= 4, std::int32_t,
                       std::conditional_t<std::is_integral_v<D>, double,
                                          std::conditional_t<std::is_same_v<D, half>, float, D>>>>;

// D is binned as it is: every number type on the host, the precompiled
// sample types on the GPU.
template <class B, class D>
inline constexpr bool bins_as_is =
    std::is_same_v<B, host_backend> ? numpy_histogram_sample<D>
                                    : std::is_same_v<histogram_sample_t<D>, D>;

template <class D>
std::vector<histogram_sample_t<D>> histogram_samples(std::span<const D> values) {
  std::vector<histogram_sample_t<D>> samples(values.size());
  std::transform(values.begin(), values.end(), samples.begin(),
                 [](D v) { return static_cast<histogram_sample_t<D>>(histogram_number(v)); });
  return samples;
}

// The shortest text of a binary16 value `h` that reads back as it: the
// fewest significant digits whose decimal lies strictly inside h's rounding
// interval (the nearer one when two do, ties to the even digit, as numpy's
// float16 repr picks them), written as std::to_chars writes its shortest form: fixed or
// scientific, whichever is shorter (fixed on a tie), an integer in fixed
// notation with all its digits.
inline std::string half_text(double h) {
  if (h == 0) return std::signbit(h) ? "-0" : "0";
  const std::string sign = h < 0 ? "-" : "";
  const double a = std::fabs(h);
  // The gaps to the neighbouring halves (above the largest, 65536: from
  // 65520 on a value rounds to infinity).
  const int e2 = std::ilogb(a);
  const double quantum = std::ldexp(1.0, std::max(e2 - 10, -24));
  const double gap_above = quantum;
  const double gap_below = (a == std::ldexp(1.0, e2) && e2 > -14) ? quantum / 2 : quantum;
  auto inside = [&](double c) { return c >= a ? c - a < gap_above / 2 : a - c < gap_below / 2; };
  char text[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*e", digits - 1, a);
    const double nearest = std::strtod(text, nullptr);
    const int exponent = std::atoi(std::strchr(text, 'e') + 1);
    const double unit = std::pow(10.0, exponent - (digits - 1));
    // The correctly rounded decimal, and the one on h's other side.
    const double other = nearest >= a ? nearest - unit : nearest + unit;
    double chosen;
    if (inside(nearest)) {  // the nearer (printf rounds ties to even)
      chosen = nearest;
    } else if (inside(other)) {
      chosen = other;
    } else {
      continue;
    }
    std::snprintf(text, sizeof text, "%.*e", digits - 1, chosen);
    std::string mantissa(text, std::strchr(text, 'e'));
    const int e10 = std::atoi(std::strchr(text, 'e') + 1);
    std::string d;
    for (char c : mantissa)
      if (c != '.') d += c;
    while (d.size() > 1 && d.back() == '0')
      d.pop_back();
    std::string sci = d.substr(0, 1) + (d.size() > 1 ? "." + d.substr(1) : "") + "e" +
                      (e10 < 0 ? "-" : "+") + (std::abs(e10) < 10 ? "0" : "") +
                      std::to_string(std::abs(e10));
    std::string fixed;
    if (e10 >= static_cast<int>(d.size()) - 1) {
      fixed = std::to_string(static_cast<long long>(a));  // an integer: all its digits
    } else if (e10 >= 0) {
      fixed = d.substr(0, e10 + 1) + "." + d.substr(e10 + 1);
    } else {
      fixed = "0." + std::string(-e10 - 1, '0') + d;
    }
    return sign + (fixed.size() <= sci.size() ? fixed : sci);
  }
  return sign + std::to_string(a);
}

// The shortest text that reads back as the same value of the edges' type:
// std::to_chars's shortest form for float32 and float64, half_text for
// float16.
inline std::string edge_text(double edge, numpy_float type) {
  char text[64];
  if (type == numpy_float::float64) {
    return std::string(text, std::to_chars(text, text + sizeof text, edge).ptr);
  }
  if (type == numpy_float::float32) {
    return std::string(text, std::to_chars(text, text + sizeof text, static_cast<float>(edge)).ptr);
  }
  return half_text(edge);
}

// One line per bin, "b lo hi count" (the bin holds [lo, hi), the last one
// [lo, hi]), the edges printed in the edges' type, then "left out: K".
inline void print_numpy_histogram(const std::vector<std::uint64_t>& counts, std::uint64_t left_out,
                                  const numpy_bins& bins) {
  const std::vector<double> edges = numpy_histogram_edges(bins, counts.size());
  for (std::size_t b = 0; b < counts.size(); ++b) {
    std::printf("%zu %s %s %llu\n", b, edge_text(edges[b], bins.edges).c_str(),
                edge_text(edges[b + 1], bins.edges).c_str(),
                static_cast<unsigned long long>(counts[b]));
  }
  std::printf("left out: %llu\n", static_cast<unsigned long long>(left_out));
}

// --bins N: a positive count below 2^31.
inline void check_histogram_bins(long long bins) {
  if (bins < 1 || bins > std::numeric_limits<int>::max()) {
    throw usage_error("--bins " + std::to_string(bins) +
                      ": the number of bins must be a positive integer below 2^31");
  }
}

}  // namespace gpuprim::cli
