// A strided N-D array: a pointer, a shape and element strides per axis,
// on the host (nd_view) or a CUDA device (device_nd_view). The N-D filters
// of the convolution family (gpuprim/convolve_nd.hpp) take them.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/core/matrix_view.hpp"

namespace gpuprim {

template <class T, class Space>
struct basic_nd_view {
  T* data = nullptr;
  std::vector<std::size_t> shape;
  std::vector<std::ptrdiff_t> strides;  // in elements

  static constexpr bool on_host = std::is_same_v<Space, detail::matrix::host_space>;

  basic_nd_view() = default;
  // C order (the last axis contiguous).
  basic_nd_view(T* d, std::vector<std::size_t> s) : data(d), shape(std::move(s)) {
    strides.assign(shape.size(), 1);
    for (std::size_t a = shape.size(); a-- > 1;)
      strides[a - 1] = strides[a] * static_cast<std::ptrdiff_t>(shape[a]);
  }
  basic_nd_view(T* d, std::vector<std::size_t> s, std::vector<std::ptrdiff_t> st)
      : data(d), shape(std::move(s)), strides(std::move(st)) {}
  // The same array seen as read-only (a template, so that a view of const
  // elements has no conversion to itself).
  template <class U>
  requires(std::is_same_v<U, T> && !std::is_const_v<U>) operator basic_nd_view<const U, Space>()
      const {
    return basic_nd_view<const U, Space>(data, shape, strides);
  }

  std::size_t ndim() const { return shape.size(); }
  std::size_t size() const {
    std::size_t n = 1;
    for (auto s : shape)
      n *= s;
    return n;
  }
};

template <class T>
using nd_view = basic_nd_view<T, detail::matrix::host_space>;
template <class T>
using device_nd_view = basic_nd_view<T, detail::matrix::device_space>;

}  // namespace gpuprim
