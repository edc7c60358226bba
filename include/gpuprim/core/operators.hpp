// Binary operators usable on the host and in kernels. The library's
// precompiled kernels are instantiated for these; any other callable works
// through the templates in gpuprim/cuda/ (include them from a .cu file).
#pragma once

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

struct plus {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

struct minimum {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

struct maximum {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

// Whether op(a, b) == op(b, a). Algorithms may use it to pick a faster
// evaluation order (they are correct either way); specialize it for your
// own commutative operators.
template <class Op>
inline constexpr bool is_commutative_v = false;
template <>
inline constexpr bool is_commutative_v<plus> = true;
template <>
inline constexpr bool is_commutative_v<minimum> = true;
template <>
inline constexpr bool is_commutative_v<maximum> = true;

// Unary transforms for transform_reduce.
struct identity {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& x) const {
    return x;
  }
};

struct square {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& x) const {
    return x * x;
  }
};

// |x| for signed arithmetic types (no <cmath> needed; -0.0 maps to -0.0,
// which compares equal to 0.0).
struct absolute {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& x) const {
    return x < T(0) ? -x : x;
  }
};

}  // namespace gpuprim
