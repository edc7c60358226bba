// Binary operators usable on the host and in kernels. The library's
// precompiled kernels are instantiated for these; any other callable works
// through the templates in gpuprim/cuda/ (include them from a .cu file).
#pragma once

#include <cmath>
#include <concepts>
#include <limits>
#include <type_traits>

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

struct plus {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

namespace detail {
// x != x is true only for NaN (and false for every integer type, where the
// check compiles away).
template <class T>
GPUPRIM_HD constexpr bool is_nan(const T& x) {
  return !(x == x);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// min / max that give NaN when either operand is NaN, one instruction each
// on sm_80 and later (a compare-and-select chain is four deep on the
// accumulator of a reduction, and made a 2^28 float min 9% slower).
__device__ inline float propagating_min(float a, float b) {
  float r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
__device__ inline float propagating_max(float a, float b) {
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
#endif
}  // namespace detail

// The smaller / larger of two values, with the NaN rules of IEEE 754-2019:
//  - minimum / maximum propagate NaN: a NaN operand gives NaN, as
//    numpy.minimum, numpy.min, torch.min do. A reduction or scan with them
//    is NaN from the first NaN on.
//  - minimum_number / maximum_number skip NaN: a NaN operand gives the
//    other one (NaN only when both are), as numpy.fmin, numpy.nanmin and
//    std::fmin do.
// Equal values (-0.0 and +0.0 included) give the first operand. For types
// without NaN (integers) the two rules are the same function. Both are
// associative and commutative up to which of two NaNs is returned.
// On the GPU, float and double take the hardware's min / max instructions
// (min.NaN.f32, fmin / fmax), which may order -0.0 before +0.0; the value is
// the same.
struct minimum {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& a, const T& b) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (std::is_same_v<T, float>) return detail::propagating_min(a, b);
    if constexpr (std::is_same_v<T, double>) {
      return detail::is_nan(a) ? a : detail::is_nan(b) ? b : fmin(a, b);
    }
#endif
    return detail::is_nan(a) ? a : (b < a || detail::is_nan(b)) ? b : a;
  }
};

struct maximum {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& a, const T& b) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (std::is_same_v<T, float>) return detail::propagating_max(a, b);
    if constexpr (std::is_same_v<T, double>) {
      return detail::is_nan(a) ? a : detail::is_nan(b) ? b : fmax(a, b);
    }
#endif
    return detail::is_nan(a) ? a : (a < b || detail::is_nan(b)) ? b : a;
  }
};

struct minimum_number {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& a, const T& b) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_floating_point_v<T>) return fmin(a, b);  // NaN skipped
#endif
    return detail::is_nan(b) ? a : (b < a || detail::is_nan(a)) ? b : a;
  }
};

struct maximum_number {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& a, const T& b) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_floating_point_v<T>) return fmax(a, b);
#endif
    return detail::is_nan(b) ? a : (a < b || detail::is_nan(a)) ? b : a;
  }
};

// Which NaN rule min_element / max_element (and the CLI's min/max) follow:
// propagate (the first NaN is the result, as numpy.argmin) or skip (NaNs
// are passed over unless every value is NaN, as numpy.nanargmin).
enum class nan_rule { propagate, skip };

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
template <>
inline constexpr bool is_commutative_v<minimum_number> = true;
template <>
inline constexpr bool is_commutative_v<maximum_number> = true;

// The identity of an operator on T: the value e with op(e, x) == x for
// every x of T. It is what an exclusive scan starts from when the caller
// names no start (out[0] = e, so out[i] equals the inclusive scan's
// out[i - 1]) and what an empty reduction gives.
//  - plus: 0.
//  - minimum / maximum: +inf / -inf for floats (NaN still propagates:
//    minimum(+inf, NaN) is NaN), T's largest / lowest value otherwise.
//  - minimum_number / maximum_number on floats: NaN, the one value every
//    operand beats (fmin(NaN, x) == x for every x, NaN included). -inf is
//    not one: maximum_number(-inf, NaN) is -inf where the inclusive scan
//    keeps NaN. On integers they are minimum / maximum.
// operator_identity<T, Op> has no `value` for other operators (has_identity
// says whether one is known).
template <class T, class Op>
struct operator_identity {};

template <class T>
struct operator_identity<T, plus> {
  static constexpr T value() { return T{0}; }
};

namespace detail {
template <class T, bool Max>
constexpr T extreme_start() {
  using limits = std::numeric_limits<T>;
  if constexpr (limits::has_infinity) {
    return Max ? -limits::infinity() : limits::infinity();
  } else {
    return Max ? limits::lowest() : limits::max();
  }
}
template <class T, bool Max>
constexpr T number_start() {
  if constexpr (std::numeric_limits<T>::has_quiet_NaN) {
    return std::numeric_limits<T>::quiet_NaN();
  } else {
    return extreme_start<T, Max>();
  }
}
}  // namespace detail

template <class T>
struct operator_identity<T, minimum> {
  static constexpr T value() { return detail::extreme_start<T, false>(); }
};
template <class T>
struct operator_identity<T, maximum> {
  static constexpr T value() { return detail::extreme_start<T, true>(); }
};
template <class T>
struct operator_identity<T, minimum_number> {
  static constexpr T value() { return detail::number_start<T, false>(); }
};
template <class T>
struct operator_identity<T, maximum_number> {
  static constexpr T value() { return detail::number_start<T, true>(); }
};

template <class T, class Op>
concept has_identity = requires {
  { operator_identity<T, std::remove_cvref_t<Op>>::value() } -> std::convertible_to<T>;
};

// identity_of<T>(op): operator_identity<T, Op>::value().
template <class T, class Op>
requires has_identity<T, Op>
constexpr T identity_of(const Op&) {
  return operator_identity<T, std::remove_cvref_t<Op>>::value();
}

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

// NaN becomes 0 and every other value stays: the sum of it is numpy.nansum.
struct nan_to_zero {
  template <class T>
  GPUPRIM_HD constexpr T operator()(const T& x) const {
    return detail::is_nan(x) ? T(0) : x;
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
