// The segmented form of an operator: a scan over (value, head) pairs with
//   (a, fa) o (b, fb) = (fb ? b : a op b, fa | fb)
// restarts at every element whose head flag is set, and is associative
// whenever `op` is. So a segmented scan is a plain scan over pairs and runs
// on the same single-pass machinery.
#pragma once

#include <cstdint>

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

// A value and whether it starts a segment. Converts to the value, so a scan
// over flagged<T> can write its results straight into an array of T.
template <class T>
struct flagged {
  T value;
  bool head;

  GPUPRIM_HD constexpr operator T() const { return value; }
};

template <class Op>
struct segmented {
  Op op;

  template <class T>
  GPUPRIM_HD constexpr flagged<T> operator()(const flagged<T>& a, const flagged<T>& b) const {
    return b.head ? b : flagged<T>{op(a.value, b.value), a.head};
  }
};

namespace detail {

// Element i of an inclusive segmented scan: (values[i], head[i]); the first
// element always starts a segment.
template <class T, class Flag>
struct head_flag_fetch {
  const Flag* flags;

  template <class In>
  GPUPRIM_HD constexpr flagged<T> operator()(const In& x, std::uint64_t i) const {
    return {static_cast<T>(x), i == 0 || flags[i] != Flag{}};
  }
};

// Element i of an exclusive segmented scan, written as an inclusive scan of
// shifted values: a head contributes (init, head), any other element the
// value before it. The scan then yields init op x_h op ... op x_{i-1}, where
// h is the head of i's segment.
template <class T, class In, class Flag>
struct exclusive_head_flag_fetch {
  const In* values;
  const Flag* flags;
  T init;

  GPUPRIM_HD constexpr flagged<T> operator()(const In&, std::uint64_t i) const {
    if (i == 0 || flags[i] != Flag{}) return {init, true};
    return {static_cast<T>(values[i - 1]), false};
  }
};

}  // namespace detail
}  // namespace gpuprim
