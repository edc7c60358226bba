// N-D filters of the convolution family, on the host (nd_view) and a CUDA
// device (device_nd_view): scipy.ndimage's correlate1d, uniform_filter1d
// and correlate with its arithmetic.
//
//   gp::nd_view<const std::uint8_t> in(img.data(), {depth, rows, cols});
//   gp::nd_view<float> out(res.data(), {depth, rows, cols});
//   const double w[] = {1, 2, 1};
//   gp::correlate1d(gp::host, in, w, 0, out, gp::border::reflect);       // along axis 0
//   gp::uniform_filter1d(gp::host, in, 5, 2, out, gp::border::zero, 7.0);  // cval 7
//   gp::correlate_nd(gp::host, in, weights3d, out, gp::border::wrap, 0.0, origins);
//   gp::correlate1d(gp::cuda.on(stream), d_in, w, 0, d_out);  // device_nd_views
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
//    outputs are written (on the GPU, an input that overlaps the output
//    is first copied). correlate_nd's out must not overlap in.
//  - Both backends give the same results bit for bit (the GPU sums in
//    double in the same order, without contracting to FMA). The filter
//    weights are host memory; the GPU call is asynchronous on the
//    backend's stream (the weights travel with the launches).
// Bad arguments throw std::invalid_argument before anything is written.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/nd_view.hpp"
#include "gpuprim/detail/convolve/convolve.hpp"
#include "gpuprim/detail/convolve/nd.hpp"
#include "gpuprim/host/convolve_nd.hpp"

namespace gpuprim {

namespace detail {

template <class In, class Out, class Space>
void check_nd_call(const char* fn, const basic_nd_view<In, Space>& in,
                   const basic_nd_view<Out, Space>& out) {
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

template <class T>
nd_array nd_array_of(const char* fn, const device_nd_view<T>& v) {
  if (v.ndim() > nd_max_axes) {
    throw std::invalid_argument(std::string(fn) + ": at most " + std::to_string(nd_max_axes) +
                                " axes on the GPU (the array has " + std::to_string(v.ndim()) +
                                ")");
  }
  nd_array a;
  a.data = const_cast<std::remove_const_t<T>*>(v.data);
  a.type = nd_type_of<T>();
  a.ndim = static_cast<int>(v.ndim());
  for (std::size_t i = 0; i < v.ndim(); ++i) {
    a.shape[i] = static_cast<long long>(v.shape[i]);
    a.strides[i] = static_cast<long long>(v.strides[i]);
  }
  return a;
}

// The CUDA entry of the input's element type (entry.hpp).
inline void cuda_nd_dispatch(const nd_call& call, stream_t stream) {
  switch (call.in.type) {
#define GPUPRIM_ND_CASE(name, type)     \
  case nd_type::name:                   \
    cuda_nd_filter<type>(call, stream); \
    return;
    GPUPRIM_CONVOLVE_ND_TYPES(GPUPRIM_ND_CASE)
#undef GPUPRIM_ND_CASE
  }
  throw std::invalid_argument("gpuprim::convolve_nd: unknown element type");
}

// The GPU call: the views made type-erased, the rest of `call` filled by
// the caller.
template <class In, class Out>
void run_nd_cuda(const char* fn, cuda_backend backend, const device_nd_view<const In>& in,
                 const device_nd_view<Out>& out, nd_call& call) {
  call.in = nd_array_of(fn, in);
  call.out = nd_array_of(fn, out);
  if (in.size() == 0) return;
  on_cuda("convolve_nd", [&] { cuda_nd_dispatch(call, backend.stream); });
}

}  // namespace detail

template <detail::convolve_backend Backend, class In, class Out>
void correlate1d(Backend backend, basic_nd_view<const In, detail::convolve_space_t<Backend>> in,
                 std::span<const double> weights, std::size_t axis,
                 basic_nd_view<Out, detail::convolve_space_t<Backend>> out,
                 border mode = border::reflect, double cval = 0.0, long long origin = 0) {
  detail::check_nd_call("correlate1d", in, out);
  if (axis >= in.ndim()) throw std::invalid_argument("correlate1d: axis out of range");
  if (weights.empty()) throw std::invalid_argument("correlate1d: no filter weights");
  detail::check_nd_origin("correlate1d", origin, weights.size());
  detail::check_border("correlate1d", mode);
  if constexpr (std::is_same_v<Backend, host_backend>) {
    host_impl::nd_along_axis(backend, in, std::vector<double>(weights.begin(), weights.end()), axis,
                             out, mode, cval, origin, false);
  } else {
    detail::nd_call call;
    call.kind = detail::nd_filter::correlate1d;
    call.weights.assign(weights.begin(), weights.end());
    call.sym = detail::nd_symmetry(weights);
    call.axis = static_cast<int>(axis);
    call.size = static_cast<long long>(weights.size());
    call.origin = origin;
    call.mode = mode;
    call.cval = cval;
    detail::run_nd_cuda("correlate1d", backend, in, out, call);
  }
}

template <detail::convolve_backend Backend, class In, class Out>
void uniform_filter1d(Backend backend,
                      basic_nd_view<const In, detail::convolve_space_t<Backend>> in,
                      std::size_t size, std::size_t axis,
                      basic_nd_view<Out, detail::convolve_space_t<Backend>> out,
                      border mode = border::reflect, double cval = 0.0, long long origin = 0) {
  detail::check_nd_call("uniform_filter1d", in, out);
  if (axis >= in.ndim()) throw std::invalid_argument("uniform_filter1d: axis out of range");
  if (size == 0) throw std::invalid_argument("uniform_filter1d: size must be at least 1");
  detail::check_nd_origin("uniform_filter1d", origin, size);
  detail::check_border("uniform_filter1d", mode);
  if constexpr (std::is_same_v<Backend, host_backend>) {
    host_impl::nd_along_axis(backend, in, std::vector<double>(size, 1.0), axis, out, mode, cval,
                             origin, true);
  } else {
    detail::nd_call call;
    call.kind = detail::nd_filter::uniform1d;
    call.axis = static_cast<int>(axis);
    call.size = static_cast<long long>(size);
    call.origin = origin;
    call.mode = mode;
    call.cval = cval;
    detail::run_nd_cuda("uniform_filter1d", backend, in, out, call);
  }
}

template <detail::convolve_backend Backend, class In, class Out>
void correlate_nd(Backend backend, basic_nd_view<const In, detail::convolve_space_t<Backend>> in,
                  nd_view<const double> weights,
                  basic_nd_view<Out, detail::convolve_space_t<Backend>> out,
                  border mode = border::reflect, double cval = 0.0,
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
  detail::check_border("correlate_nd", mode);
  if constexpr (std::is_same_v<Backend, host_backend>) {
    host_impl::nd_correlate(backend, in, weights, out, mode, cval, o);
  } else {
    detail::nd_call call;
    call.kind = detail::nd_filter::correlate;
    detail::nd_taps(weights, o, call.weights, call.offsets);
    call.mode = mode;
    call.cval = cval;
    detail::run_nd_cuda("correlate_nd", backend, in, out, call);
  }
}

}  // namespace gpuprim
