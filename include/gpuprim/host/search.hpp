// CPU backend of the vectorized binary search (lower_bound / upper_bound of
// many queries in one sorted array): the queries are split among the
// OpenMP threads, each one searched without a branch on the data (the
// comparison picks the next base by a conditional move), so a batch of
// queries keeps the pipeline full instead of mispredicting half the steps.
#pragma once

#include <omp.h>

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/backend.hpp"

namespace gpuprim::host_impl {

// The first position p in sorted[0, n) with !before(sorted[p]): `before`
// is true on a prefix of the array (comp(e, q) for lower_bound,
// !comp(q, e) for upper_bound).
template <class T, class Before>
inline std::size_t branchless_partition_point(const T* sorted, std::size_t n, Before before) {
  if (n == 0) return 0;
  std::size_t base = 0;
  while (n > 1) {
    const std::size_t half = n / 2;
    base = before(sorted[base + half]) ? base + half : base;
    n -= half;
  }
  return base + static_cast<std::size_t>(before(sorted[base]));
}

// out[i] = the lower (upper, when `upper`) bound of queries[i] in sorted.
template <bool upper, class T, class Q, class I, class Comp>
void search(host_backend backend, const T* sorted, std::size_t n, const Q* queries, std::size_t m,
            I* out, Comp comp) {
  // A query costs log2(n) dependent loads: threads pay off from a few
  // thousand queries on.
  const int requested = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  const int threads = static_cast<int>(m / 4096 + 1 < static_cast<std::size_t>(requested)
                                           ? m / 4096 + 1
                                           : static_cast<std::size_t>(requested));
  const auto count = static_cast<std::int64_t>(m);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < count; ++i) {
    const Q& q = queries[i];
    std::size_t p;
    if constexpr (upper) {
      p = branchless_partition_point(sorted, n, [&](const T& e) { return !comp(q, e); });
    } else {
      p = branchless_partition_point(sorted, n, [&](const T& e) { return comp(e, q); });
    }
    out[i] = static_cast<I>(p);
  }
}

// The first i with comp(sorted[i + 1], sorted[i]) (the table is out of
// order there), or n when it is sorted.
template <class T, class Comp>
std::size_t first_unsorted(host_backend backend, const T* sorted, std::size_t n, Comp comp) {
  if (n < 2) return n;
  const auto count = static_cast<std::int64_t>(n - 1);
  std::int64_t first = count;
  const int requested = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  const int threads = static_cast<int>(n / 65536 + 1 < static_cast<std::size_t>(requested)
                                           ? n / 65536 + 1
                                           : static_cast<std::size_t>(requested));
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : first)
  for (std::int64_t i = 0; i < count; ++i) {
    if (comp(sorted[i + 1], sorted[i]) && i < first) first = i;
  }
  return first == count ? n : static_cast<std::size_t>(first);
}

}  // namespace gpuprim::host_impl
