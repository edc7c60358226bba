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
#include <string>
#include <utility>
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

// first, first + 1, ..., first + n - 1: values that record where each key
// came from.
template <class V>
std::vector<V> origins(std::size_t n, V first) {
  std::vector<V> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

// std::merge of the (key, value) pairs of a and b by key: on equal keys a's
// pairs first, each run in its own order, as a stable merge by key must give.
template <class K, class V>
std::vector<std::pair<K, V>> reference_merge_by_key(const std::vector<K>& a,
                                                    const std::vector<V>& va,
                                                    const std::vector<K>& b,
                                                    const std::vector<V>& vb) {
  std::vector<std::pair<K, V>> pa, pb, merged(a.size() + b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    pa.push_back({a[i], va[i]});
  for (std::size_t i = 0; i < b.size(); ++i)
    pb.push_back({b[i], vb[i]});
  std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), merged.begin(),
             [](const auto& x, const auto& y) { return x.first < y.first; });
  return merged;
}

// keys[i] and values[i] are want[i]'s pair for every i; the first difference
// is reported with `where`.
template <class K, class V>
void expect_pairs(const std::vector<K>& keys, const std::vector<V>& values,
                  const std::vector<std::pair<K, V>>& want, const std::string& where) {
  ASSERT_EQ(keys.size(), want.size()) << where;
  ASSERT_EQ(values.size(), want.size()) << where;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(keys[i], want[i].first) << where << " at " << i;
    ASSERT_EQ(values[i], want[i].second) << where << " at " << i;
  }
}

}  // namespace gpuprim::test
