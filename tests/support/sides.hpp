// Where a shared test body's arrays live and which backend runs on them, so
// that one body (support/sort_cases.hpp, support/histogram_cases.hpp) serves
// the host and the CUDA suites:
//
//   Side::backend()          the backend passed to the algorithm
//   Side::put(std::vector)   an array of that side holding these values
//   Side::get(array)         the array's values, back on the host
//   Side::span(array)        a span of the array, for subspans
#pragma once

#include <span>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"

namespace gpuprim::test {

struct host_side {
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
};

struct cuda_side {
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
};

}  // namespace gpuprim::test
