// A value with its position, as returned by min_element / max_element, and
// the operators that pick the better of two such pairs.
#pragma once

#include <cstdint>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/operators.hpp"

namespace gpuprim {

template <class T>
struct value_index {
  T value;
  std::uint64_t index;

  // Marks "no element": loses every comparison (the init of min/max_element).
  static constexpr std::uint64_t none = ~std::uint64_t{0};

  friend constexpr bool operator==(const value_index&, const value_index&) = default;
};

namespace detail {

// Picks the smaller (Max == false) or larger (Max == true) value; ties go to
// the lower index, as std::min_element / std::max_element return the first.
// With nan_rule::propagate NaN beats every number (the result is the first
// NaN, as numpy.argmin); with nan_rule::skip NaN loses to every number, so
// NaNs are skipped unless all values are NaN (numpy.nanargmin). An entry
// with index `none` loses to everything. The order is total, so the
// operator is associative and commutative.
template <bool Max, nan_rule Rule = nan_rule::propagate>
struct select_extreme {
  template <class T>
  GPUPRIM_HD constexpr value_index<T> operator()(const value_index<T>& a,
                                                 const value_index<T>& b) const {
    if (a.index == value_index<T>::none) return b;
    if (b.index == value_index<T>::none) return a;
    const bool a_nan = is_nan(a.value);
    const bool b_nan = is_nan(b.value);
    if (a_nan != b_nan) return (a_nan == (Rule == nan_rule::propagate)) ? a : b;
    if (!a_nan) {
      if (Max ? (a.value < b.value) : (b.value < a.value)) return b;
      if (Max ? (b.value < a.value) : (a.value < b.value)) return a;
    }
    return b.index < a.index ? b : a;
  }
};

using select_min = select_extreme<false>;
using select_max = select_extreme<true>;
using select_min_number = select_extreme<false, nan_rule::skip>;
using select_max_number = select_extreme<true, nan_rule::skip>;
}  // namespace detail

template <bool Max, nan_rule Rule>
inline constexpr bool is_commutative_v<detail::select_extreme<Max, Rule>> = true;

namespace detail {

// Fetches for the reduction core: what an element at position i contributes.
template <class F>
struct unary_fetch {
  F transform;
  template <class In>
  GPUPRIM_HD constexpr auto operator()(const In& x, std::uint64_t) const {
    return transform(x);
  }
};

struct value_index_fetch {
  template <class In>
  GPUPRIM_HD constexpr value_index<In> operator()(const In& x, std::uint64_t i) const {
    return {x, i};
  }
};

}  // namespace detail
}  // namespace gpuprim
