// N-D filters of the convolution family, on the host: scipy.ndimage's
// correlate1d, uniform_filter1d and correlate with its arithmetic.
//
//   gp::nd_view<const std::uint8_t> in(img.data(), {depth, rows, cols});
//   gp::nd_view<float> out(res.data(), {depth, rows, cols});
//   const double w[] = {1, 2, 1};
//   gp::correlate1d(gp::host, in, w, 0, out, gp::border::reflect);       // along axis 0
//   gp::uniform_filter1d(gp::host, in, 5, 2, out, gp::border::zero, 7.0);  // cval 7
//   gp::correlate_nd(gp::host, in, weights3d, out, gp::border::wrap, 0.0, origins);
//
// Semantics (SciPy's, for every input and output element type: 8-64-bit
// integers (a bool array as its bytes, uint8), float, double, in any
// combination):
//  - correlate1d: out[.., x, ..] = sum_j w[j] * in[.., x + j - (k / 2 + origin), ..]
//    along `axis` (k = w.size()); convolve1d is this with the weights
//    reversed and origin -origin (-origin - 1 for even k), which the caller
//    does.
//  - uniform_filter1d: the mean of `size` values along `axis` with the same
//    window, as a running sum (SciPy's rounding, not a correlation's).
//  - correlate_nd: out[x] = sum_t w[t] * in[x + t - (shape / 2 + origin)]
//    over the taps t with |w[t]| > DBL_EPSILON in C order (weights has the
//    input's number of axes).
//  - Border modes as convolve.hpp's, each axis extended as far as the filter
//    reaches; border::zero reads `cval` outside the array.
//  - Values are read as double, summed in double in SciPy's order, and
//    rounded once to the output type (integers truncated toward zero and
//    wrapped to their width, as SciPy's casts on x86-64; correlate_nd's
//    unsigned results of v <= -1 as -(T)(-v), as SciPy's).
//  - origin (per axis for correlate_nd) lies in [-(k / 2), (k - 1) / 2].
//  - in and out have the same shape; any strides. The 1-D filters may
//    write `in` itself (the same view): each line is read whole before its
//    outputs are written. correlate_nd's out must not overlap in.
// Bad arguments throw std::invalid_argument before anything is written.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/detail/convolve/plan.hpp"
#include "gpuprim/host/convolve_nd.hpp"

namespace gpuprim {

namespace detail {

template <class In, class Out>
void check_nd_call(const char* fn, const nd_view<In>& in, const nd_view<Out>& out) {
  const std::string f(fn);
  if (in.ndim() == 0) throw std::invalid_argument(f + ": the input has no axes");
  if (in.shape != out.shape) throw std::invalid_argument(f + ": out must have in's shape");
  if (in.strides.size() != in.ndim() || out.strides.size() != out.ndim()) {
    throw std::invalid_argument(f + ": one stride per axis is needed");
  }
  if (in.size() > 0 && (in.data == nullptr || out.data == nullptr)) {
    throw std::invalid_argument(f + ": null data");
  }
}

inline void check_nd_origin(const char* fn, long long origin, std::size_t k) {
  const long long half = static_cast<long long>(k / 2);
  if (origin < -half || origin > static_cast<long long>((k - 1) / 2)) {
    throw std::invalid_argument(std::string(fn) + ": origin " + std::to_string(origin) +
                                " lies outside the filter of size " + std::to_string(k));
  }
}

}  // namespace detail

template <class In, class Out>
void correlate1d(host_backend backend, nd_view<const In> in, std::span<const double> weights,
                 std::size_t axis, nd_view<Out> out, border mode = border::reflect,
                 double cval = 0.0, long long origin = 0) {
  detail::check_nd_call("correlate1d", in, out);
  if (axis >= in.ndim()) throw std::invalid_argument("correlate1d: axis out of range");
  if (weights.empty()) throw std::invalid_argument("correlate1d: no filter weights");
  detail::check_nd_origin("correlate1d", origin, weights.size());
  host_impl::nd_along_axis(backend, in, std::vector<double>(weights.begin(), weights.end()), axis,
                             out, mode, cval, origin, false);
}

template <class In, class Out>
void uniform_filter1d(host_backend backend, nd_view<const In> in, std::size_t size,
                      std::size_t axis, nd_view<Out> out, border mode = border::reflect,
                      double cval = 0.0, long long origin = 0) {
  detail::check_nd_call("uniform_filter1d", in, out);
  if (axis >= in.ndim()) throw std::invalid_argument("uniform_filter1d: axis out of range");
  if (size == 0) throw std::invalid_argument("uniform_filter1d: size must be at least 1");
  detail::check_nd_origin("uniform_filter1d", origin, size);
  host_impl::nd_along_axis(backend, in, std::vector<double>(size, 1.0), axis, out, mode, cval,
                             origin, true);
}

template <class In, class Out>
void correlate_nd(host_backend backend, nd_view<const In> in, nd_view<const double> weights,
                  nd_view<Out> out, border mode = border::reflect, double cval = 0.0,
                  std::span<const long long> origins = {}) {
  detail::check_nd_call("correlate_nd", in, out);
  if (weights.ndim() != in.ndim() || weights.strides.size() != weights.ndim()) {
    throw std::invalid_argument("correlate_nd: the weights must have the input's number of axes");
  }
  if (weights.size() == 0) throw std::invalid_argument("correlate_nd: no filter weights");
  std::vector<long long> o(in.ndim(), 0);
  if (!origins.empty()) {
    if (origins.size() != in.ndim()) {
      throw std::invalid_argument("correlate_nd: one origin per axis is needed");
    }
    o.assign(origins.begin(), origins.end());
  }
  for (std::size_t a = 0; a < in.ndim(); ++a)
    detail::check_nd_origin("correlate_nd", o[a], weights.shape[a]);
  host_impl::nd_correlate(backend, in, weights, out, mode, cval, o);
}

}  // namespace gpuprim
