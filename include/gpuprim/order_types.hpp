// The comparators of the order family (search, top-k, merge): strict weak
// orders usable on the host and in kernels. Any other callable
// `bool comp(const T& a, const T& b)` ("a goes before b") works too.
#pragma once

#include <type_traits>

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

// a < b.
struct less {
  template <class T>
  GPUPRIM_HD constexpr bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};

// a > b.
struct greater {
  template <class T>
  GPUPRIM_HD constexpr bool operator()(const T& a, const T& b) const {
    return b < a;
  }
};

// NumPy's order: a < b, with NaN after every number and NaNs equal to one
// another (numpy.sort, numpy.searchsorted). For integers it is a < b.
struct nan_last_less {
  template <class T>
  GPUPRIM_HD constexpr bool operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return a < b || (b != b && a == a);
    } else {
      return a < b;
    }
  }
};

// NumPy's order reversed: NaN first, then the numbers from the largest.
struct nan_first_greater {
  template <class T>
  GPUPRIM_HD constexpr bool operator()(const T& a, const T& b) const {
    return nan_last_less{}(b, a);
  }
};

}  // namespace gpuprim
