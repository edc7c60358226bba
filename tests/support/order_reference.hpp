// References for the order family's tests (search, top-k, merge): the
// standard library's algorithms, and the data the tests draw.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "gpuprim/order_types.hpp"

namespace gpuprim::test {

// n values of T from a small range (many ties): 0 .. distinct - 1, as T.
template <class T>
std::vector<T> tied_vector(std::size_t n, std::size_t distinct, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> d(0, distinct - 1);
  std::vector<T> v(n);
  for (auto& x : v)
    x = static_cast<T>(d(rng));
  return v;
}

// The indices of top-k's result by a full stable sort: NumPy's order
// (NaN largest), reversed for `largest`, ties by index.
template <class T>
std::vector<std::int64_t> reference_topk(const T* x, std::size_t n, std::size_t k, bool largest) {
  std::vector<std::int64_t> idx(n);
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t i, std::int64_t j) {
    return largest ? nan_last_less{}(x[j], x[i]) : nan_last_less{}(x[i], x[j]);
  });
  idx.resize(k);
  return idx;
}

// Equal as values, NaN equal to NaN (for comparing top-k's values).
template <class T>
bool same_value(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  }
  return a == b;
}

}  // namespace gpuprim::test
