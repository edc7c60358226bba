// Sequential references of the selection family (gpuprim/select.hpp), from
// the standard library where it has the algorithm, and the inputs the tests
// draw.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuprim::test {

// copy_if by std::copy_if; the indices of the selected elements.
template <class T, class Pred>
std::vector<T> reference_copy_if(const std::vector<T>& x, Pred pred) {
  std::vector<T> out;
  std::copy_if(x.begin(), x.end(), std::back_inserter(out), pred);
  return out;
}

template <class T, class Pred>
std::vector<std::int64_t> reference_indices_if(const std::vector<T>& x, Pred pred) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (pred(x[i])) out.push_back(static_cast<std::int64_t>(i));
  return out;
}

// std::stable_partition; with `reversed`, the rest in reverse order (CUB's layout).
template <class T, class Pred>
std::vector<T> reference_partition(std::vector<T> x, Pred pred, bool reversed) {
  const auto middle = std::stable_partition(x.begin(), x.end(), pred);
  if (reversed) std::reverse(middle, x.end());
  return x;
}

// Runs of equal consecutive keys: each run's first index.
template <class K, class Eq>
std::vector<std::size_t> reference_run_heads(const std::vector<K>& keys, Eq eq) {
  std::vector<std::size_t> heads;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (i == 0 || !eq(keys[i - 1], keys[i])) heads.push_back(i);
  return heads;
}

// Keys drawn in runs of 1 to max_run equal values (neighbouring runs may
// draw the same value and merge), the values a few distinct ones.
template <class T>
std::vector<T> keys_in_runs(std::size_t n, std::mt19937_64& rng, int max_run = 8) {
  std::vector<T> keys;
  keys.reserve(n);
  std::uniform_int_distribution<int> run(1, max_run);
  std::uniform_int_distribution<int> value(0, 50);
  while (keys.size() < n) {
    const T v = static_cast<T>(value(rng));
    for (int r = run(rng); r > 0 && keys.size() < n; --r)
      keys.push_back(v);
  }
  return keys;
}

}  // namespace gpuprim::test
