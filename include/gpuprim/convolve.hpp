// Convolution family: 2-D convolution and correlation of images, general
// and separable, on the CPU and the GPU.
//
//   gp::matrix_view<const float> in(x.data(), h, w);
//   gp::matrix_view<float> out(y.data(), h, w);
//   gp::convolve(gp::host, in, gp::filters::laplacian(), out);                  // border reflect
//   gp::correlate(gp::cuda, d_in, gp::filters::sobel_x(), d_out, gp::border::zero);
//   auto g = gp::filters::gaussian_1d(2.0);
//   gp::convolve_separable(gp::cuda.on(s), d_in, g, g, d_out, gp::border::mirror);
//   gp::convolve(gp::host, gp::image_view<const std::uint8_t>(rgb, h, w, 3), f,
//                gp::image_view<std::uint8_t>(out_rgb, h, w, 3));            // per channel
//
// Semantics, for every backend, as scipy.ndimage.convolve / correlate (and
// correlate1d along rows, then columns, for the separable forms):
//  - correlate: out(y, x) = sum_{i, j} w(i, j) * in(y + i - ci, x + j - cj),
//    with the filter's centre ci = rows / 2, cj = cols / 2 (also for even
//    sizes). convolve flips the filter: out(y, x) = sum w(i, j) *
//    in(y - i + ci, x - j + cj).
//  - Separable: row_filter runs along each row (x), column_filter along
//    each column (y); the result is the 2-D call with the outer product
//    column_filter x row_filter, computed in two passes (host) or one fused
//    pass (GPU). The library does not detect separability: the caller says.
//  - Pixels outside the image come from the border mode: zero (0, scipy's
//    'constant'), replicate ('nearest'), reflect (d c b a | a b c d | d c b a),
//    mirror (d c b | a b c d | c b a), wrap (periodic); any filter size works
//    on any image size (the extension repeats as far as needed).
//  - Filter sides are 1 to 63 (gp::max_filter_size). Weights with |w| <=
//    DBL_EPSILON are skipped, as scipy.ndimage.correlate skips them, so an
//    inf under a zero weight does not turn into NaN; otherwise NaN and inf
//    propagate as arithmetic does.
//  - Images: float and double (computed in their own precision), and 8-bit
//    images of any number of interleaved channels (computed in float per
//    channel, rounded to nearest, ties to even, clamped to 0..255; NaN gives
//    0). A gp::matrix_view is a one-channel image; a gp::image_view may hold
//    a batch of images, all filtered in one call.
//  - in and out have the same shape; out must not overlap in (the pixels
//    are read more than once). Bad arguments throw std::invalid_argument
//    before anything is written.
// GPU calls enqueue on the backend's stream and return (the filter travels
// with the launch, so the caller's filter may go at once).
#pragma once

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/convolve_types.hpp"
#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/image_view.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/detail/convolve/convolve.hpp"
#include "gpuprim/filters.hpp"
#include "gpuprim/host/convolve.hpp"

namespace gpuprim {

namespace detail {

// The host step of every convolution: the checks, then the host backend.
template <class In, class Out>
void run_convolve(host_backend backend, const char* algorithm, In in, Out out,
                  const convolve_plan& plan) {
  using T = convolve_element_t<Out>;
  check_border(algorithm, plan.mode);
  const auto images = checked_images<T>(algorithm, image_view<const T>(in), image_view<T>(out));
  host_impl::convolve(backend, images, plan);
}

}  // namespace detail

// gp::border (the border modes), gp::filter and max_filter_size are in
// gpuprim/convolve_types.hpp.

// ---- general filters ---------------------------------------------------------

template <detail::convolve_backend Backend, class In, class Out>
requires detail::convolve_views<In, Out, detail::convolve_space_t<Backend>>
void convolve(Backend backend, In in, const filter& f, Out out, border mode = border::reflect) {
  detail::run_convolve(backend, "convolve", in, out,
                       detail::make_general_plan("convolve", f, mode, true));
}

template <detail::convolve_backend Backend, class In, class Out>
requires detail::convolve_views<In, Out, detail::convolve_space_t<Backend>>
void correlate(Backend backend, In in, const filter& f, Out out, border mode = border::reflect) {
  detail::run_convolve(backend, "correlate", in, out,
                       detail::make_general_plan("correlate", f, mode, false));
}

// ---- separable filters ---------------------------------------------------------

namespace detail {

// gp::convolve_separable (Flip) and gp::correlate_separable: one call, the
// flip of the filters a parameter.
template <bool Flip>
struct separable_filter {
  template <convolve_backend Backend, class In, class Out>
  requires convolve_views<In, Out, convolve_space_t<Backend>>
  void operator()(Backend backend, In in, std::span<const double> row_filter,
                  std::span<const double> column_filter, Out out,
                  border mode = border::reflect) const {
    const char* algorithm = Flip ? "convolve_separable" : "correlate_separable";
    run_convolve(backend, algorithm, in, out,
                 make_separable_plan(algorithm, row_filter, column_filter, mode, Flip));
  }
};

}  // namespace detail

// convolve_separable(backend, in, row_filter, column_filter, out,
// mode = border::reflect) and correlate_separable(...): the row filter
// along each row, then the column filter along each column.
inline constexpr detail::separable_filter<true> convolve_separable{};
inline constexpr detail::separable_filter<false> correlate_separable{};

}  // namespace gpuprim
