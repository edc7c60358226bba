// Where a shared test body's arrays live and which backend runs on them, so
// that one body (support/sort_cases.hpp, support/histogram_cases.hpp) serves
// the host and the CUDA suites:
//
//   Side::backend()          the backend passed to the algorithm
//   Side::put(std::vector)   an array of that side holding these values
//   Side::get(array)         the array's values, back on the host
//   Side::span(array)        a span of the array, for subspans
//   Side::filled_bytes<T>(n, byte)  n elements of that side, every byte `byte`
//                            (a poisoned output: an unwritten element shows)
//   Side::matrix_view<T>, Side::image_view<T>  the views of that side's memory
#pragma once

#include <cstring>
#include <span>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/image_view.hpp"
#include "gpuprim/core/matrix_view.hpp"

namespace gpuprim::test {

// What the sides share: filled_bytes, made on the host and put on the side.
template <class Side>
struct side_base {
  template <class T>
  static auto filled_bytes(std::size_t n, unsigned char byte) {
    std::vector<T> a(n);
    std::memset(static_cast<void*>(a.data()), byte, n * sizeof(T));
    return Side::put(a);
  }
};

struct host_side : side_base<host_side> {
  static auto backend() { return gpuprim::host; }
  template <class T>
  static std::vector<T> put(const std::vector<T>& x) {
    return x;
  }
  template <class T>
  static std::vector<T> get(const std::vector<T>& a) {
    return a;
  }
  template <class T>
  static std::span<T> span(std::vector<T>& a) {
    return a;
  }
  template <class T>
  static std::span<const T> span(const std::vector<T>& a) {
    return a;
  }
  template <class T>
  using matrix_view = gpuprim::matrix_view<T>;
  template <class T>
  using image_view = gpuprim::image_view<T>;
};

struct cuda_side : side_base<cuda_side> {
  static auto backend() { return gpuprim::cuda; }
  template <class T>
  static gpuprim::device_vector<T> put(const std::vector<T>& x) {
    return gpuprim::to_device(x);
  }
  template <class T>
  static std::vector<T> get(const gpuprim::device_vector<T>& a) {
    return gpuprim::to_host(a);
  }
  template <class T>
  static gpuprim::device_span<T> span(gpuprim::device_vector<T>& a) {
    return a.span();
  }
  template <class T>
  static gpuprim::device_span<const T> span(const gpuprim::device_vector<T>& a) {
    return a.span();
  }
  template <class T>
  using matrix_view = gpuprim::device_matrix_view<T>;
  template <class T>
  using image_view = gpuprim::device_image_view<T>;
};

}  // namespace gpuprim::test
