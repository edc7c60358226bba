// The convolution family's shared detail: the element types and views it
// takes, the plans (taps, anchor, border) made from a filter, the checks of
// images both backends make, and the GPU step (the host one is in
// gpuprim/convolve.hpp, the entry points in entry.hpp).
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
#include "gpuprim/detail/convolve/entry.hpp"
#include "gpuprim/detail/convolve/plan.hpp"
#include "gpuprim/detail/convolve/precompiled.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"

namespace gpuprim::detail {

template <class T>
concept convolve_value = precompiled_convolve<T>;

template <class V>
struct convolve_view_traits {
  static constexpr bool is_view = false;
};
template <class U, class S>
struct convolve_view_traits<basic_matrix_view<U, S>> {
  static constexpr bool is_view = true;
  using element = U;
  using space = S;
};
template <class U, class S>
struct convolve_view_traits<basic_image_view<U, S>> {
  static constexpr bool is_view = true;
  using element = U;
  using space = S;
};

// In and Out are matrix or image views of Space; Out's elements are a
// writable convolve_value, In's the same type (const or not).
template <class In, class Out, class Space>
concept convolve_views =
    convolve_view_traits<In>::is_view && convolve_view_traits<Out>::is_view &&
    std::is_same_v<typename convolve_view_traits<In>::space, Space> &&
    std::is_same_v<typename convolve_view_traits<Out>::space, Space> &&
    !std::is_const_v<typename convolve_view_traits<Out>::element> &&
    convolve_value<typename convolve_view_traits<Out>::element> &&
    std::is_same_v<std::remove_const_t<typename convolve_view_traits<In>::element>,
                   typename convolve_view_traits<Out>::element>;

template <class Out>
using convolve_element_t = typename convolve_view_traits<Out>::element;

inline std::string convolve_where(const char* algorithm) {
  return std::string("gpuprim::") + algorithm + ": ";
}

inline void check_filter_side(const char* algorithm, const char* what, std::size_t size) {
  if (size == 0) throw std::invalid_argument(convolve_where(algorithm) + what + " is empty");
  if (size > max_filter_size) {
    throw std::invalid_argument(convolve_where(algorithm) + what + " has a side of " +
                                std::to_string(size) + "; at most " +
                                std::to_string(max_filter_size) + " is supported");
  }
}

// scipy skips weights with |w| <= DBL_EPSILON; so do we (a skipped weight is 0).
inline double effective_weight(double w) {
  return std::fabs(w) > DBL_EPSILON ? w : 0.0;
}

// The correlation's anchor of a filter side k: k / 2 for correlate; for
// convolve, whose taps are flipped, (k - 1) / 2 (scipy's origin shift for
// even sizes).
inline int anchor_of(std::size_t k, bool flip) {
  return static_cast<int>(flip ? (k - 1) / 2 : k / 2);
}

// A plan without its taps: a krows x kcols filter (separable: a column
// filter of krows taps and a row filter of kcols) and its anchor.
inline convolve_plan plan_of_shape(bool separable, std::size_t krows, std::size_t kcols,
                                   border mode, bool flip) {
  convolve_plan p;
  p.separable = separable;
  p.krows = static_cast<int>(krows);
  p.kcols = static_cast<int>(kcols);
  p.ay = anchor_of(krows, flip);
  p.ax = anchor_of(kcols, flip);
  p.mode = mode;
  return p;
}

inline convolve_plan make_general_plan(const char* algorithm, const filter& f, border mode,
                                       bool flip) {
  check_filter_side(algorithm, "the filter", f.empty() ? 0 : std::max(f.rows(), f.cols()));
  convolve_plan p = plan_of_shape(false, f.rows(), f.cols(), mode, flip);
  p.taps.resize(f.rows() * f.cols());
  for (std::size_t i = 0; i < f.rows(); ++i) {
    for (std::size_t j = 0; j < f.cols(); ++j) {
      const double w = flip ? f(f.rows() - 1 - i, f.cols() - 1 - j) : f(i, j);
      p.taps[i * f.cols() + j] = effective_weight(w);
    }
  }
  return p;
}

inline convolve_plan make_separable_plan(const char* algorithm, std::span<const double> row,
                                         std::span<const double> column, border mode, bool flip) {
  check_filter_side(algorithm, "row_filter", row.size());
  check_filter_side(algorithm, "column_filter", column.size());
  convolve_plan p = plan_of_shape(true, column.size(), row.size(), mode, flip);
  for (std::size_t j = 0; j < row.size(); ++j)
    p.taps.push_back(effective_weight(flip ? row[row.size() - 1 - j] : row[j]));
  for (std::size_t i = 0; i < column.size(); ++i)
    p.taps.push_back(effective_weight(flip ? column[column.size() - 1 - i] : column[i]));
  return p;
}

inline void check_border(const char* algorithm, border mode) {
  switch (mode) {
    case border::zero:
    case border::replicate:
    case border::reflect:
    case border::mirror:
    case border::wrap:
      return;
  }
  throw std::invalid_argument(convolve_where(algorithm) + "unknown border mode " +
                              std::to_string(static_cast<int>(mode)));
}

// The checked pair of images: same shape, no overlap.
template <class T, class Space>
convolve_images<T> checked_images(const char* algorithm, basic_image_view<const T, Space> in,
                                  basic_image_view<T, Space> out) {
  if (in.count() != out.count() || in.rows() != out.rows() || in.cols() != out.cols() ||
      in.channels() != out.channels()) {
    auto shape = [](const auto& v) {
      return std::to_string(v.count()) + " x " + std::to_string(v.rows()) + " x " +
             std::to_string(v.cols()) + " x " + std::to_string(v.channels());
    };
    throw std::invalid_argument(convolve_where(algorithm) + "in is " + shape(in) + ", out is " +
                                shape(out) + " (images x rows x cols x channels); they must match");
  }
  if (ranges_overlap(in, out)) {
    throw std::invalid_argument(convolve_where(algorithm) +
                                "out overlaps in (the filter reads every pixel more than once; "
                                "write to separate memory)");
  }
  if (in.rows() > 0x7fffffffu || in.cols() > 0x7fffffffu) {
    throw std::invalid_argument(convolve_where(algorithm) +
                                "images of 2^31 rows or columns or "
                                "more are not supported");
  }
  // Fields: in, out, count, rows, cols, channels, in_ld, in_stride, out_ld, out_stride.
  return convolve_images<T>{in.data(), out.data(),        in.count(), in.rows(),
                            in.cols(), in.channels(),     in.ld(),    in.image_stride(),
                            out.ld(),  out.image_stride()};
}

template <class In, class Out>
void run_convolve(cuda_backend backend, const char* algorithm, In in, Out out,
                  const convolve_plan& plan) {
  using T = convolve_element_t<Out>;
  check_border(algorithm, plan.mode);
  const auto images =
      checked_images<T>(algorithm, device_image_view<const T>(in), device_image_view<T>(out));
  if (images.count == 0 || images.rows == 0 || images.cols == 0) return;
  on_cuda("convolve", [&] { cuda_convolve(images, plan, backend.stream); });
}

template <class Backend>
using convolve_space_t = std::conditional_t<std::is_same_v<Backend, host_backend>,
                                            detail::matrix::host_space, detail::matrix::device_space>;

template <class Backend>
concept convolve_backend =
    std::is_same_v<Backend, host_backend> || std::is_same_v<Backend, cuda_backend>;

}  // namespace gpuprim::detail
