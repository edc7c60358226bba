// CPU backend of merge and merge sort, both stable.
//
// merge: the output is cut into one piece per OpenMP thread; the merge
// path (a binary search along the piece's first output diagonal) says where
// in a and in b each piece starts, and each thread merges its piece alone.
// Ties take a's element first, at the splits too: a[i] goes before b[j]
// unless comp(b[j], a[i]).
//
// merge sort: one contiguous chunk per thread, sorted by std::stable_sort
// (keys and values zipped into pairs for the by-key form), then rounds of
// merges of neighbouring runs between two buffers, every merge of a round
// cut into pieces by the merge path so that all threads work in every round.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/core/backend.hpp"

namespace gpuprim::host_impl {

// Keys and, when V is not void, the values that travel with them.
template <class K, class V>
struct merge_arrays {
  K* keys;
  V* values;
};
template <class K>
struct merge_arrays<K, void> {
  K* keys;
};
template <class K>
struct merge_arrays<K, const void> {
  K* keys;
};

// The number of a's elements among the first d of the merge of a and b.
template <class K, class Comp>
std::size_t merge_path(const K* a, std::size_t na, const K* b, std::size_t nb, std::size_t d,
                       Comp& comp) {
  std::size_t lo = d > nb ? d - nb : 0;
  std::size_t hi = std::min(d, na);
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (!comp(b[d - 1 - mid], a[mid])) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Merges output positions [d0, d1) of a and b into out + d0, one thread.
template <class K, class V, class Comp>
void merge_piece(merge_arrays<const K, std::add_const_t<V>> a, std::size_t na,
                 merge_arrays<const K, std::add_const_t<V>> b, std::size_t nb,
                 merge_arrays<K, V> out, std::size_t d0, std::size_t d1, Comp& comp) {
  std::size_t i = merge_path(a.keys, na, b.keys, nb, d0, comp);
  std::size_t j = d0 - i;
  const std::size_t i1 = merge_path(a.keys, na, b.keys, nb, d1, comp);
  const std::size_t j1 = d1 - i1;
  std::size_t o = d0;
  while (i < i1 && j < j1) {
    const bool take_b = comp(b.keys[j], a.keys[i]);
    if (take_b) {
      out.keys[o] = b.keys[j];
      if constexpr (!std::is_void_v<V>) out.values[o] = b.values[j];
      ++j;
    } else {
      out.keys[o] = a.keys[i];
      if constexpr (!std::is_void_v<V>) out.values[o] = a.values[i];
      ++i;
    }
    ++o;
  }
  for (; i < i1; ++i, ++o) {
    out.keys[o] = a.keys[i];
    if constexpr (!std::is_void_v<V>) out.values[o] = a.values[i];
  }
  for (; j < j1; ++j, ++o) {
    out.keys[o] = b.keys[j];
    if constexpr (!std::is_void_v<V>) out.values[o] = b.values[j];
  }
}

inline int merge_threads(host_backend backend, std::size_t n) {
  const int requested = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(requested, n / 32768)));
}

// One merge on `threads` threads.
template <class K, class V, class Comp>
void merge(host_backend backend, merge_arrays<const K, std::add_const_t<V>> a, std::size_t na,
           merge_arrays<const K, std::add_const_t<V>> b, std::size_t nb, merge_arrays<K, V> out,
           Comp comp) {
  const std::size_t n = na + nb;
  const int threads = merge_threads(backend, n);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const std::size_t d0 = n / threads * t + std::min<std::size_t>(t, n % threads);
    const std::size_t d1 = n / threads * (t + 1) + std::min<std::size_t>(t + 1, n % threads);
    Comp c = comp;
    merge_piece<K, V>(a, na, b, nb, out, d0, d1, c);
  }
}

// Sorts keys[0, n) (and values with them) stably by comp.
template <class K, class V, class Comp>
void merge_sort(host_backend backend, merge_arrays<K, V> data, std::size_t n, Comp comp) {
  if (n < 2) return;
  const int threads = merge_threads(backend, n);
  std::vector<std::size_t> bounds(static_cast<std::size_t>(threads) + 1);
  for (int t = 0; t <= threads; ++t)
    bounds[t] = n / threads * t + std::min<std::size_t>(t, n % threads);

    // 1. Each chunk sorted alone.
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const std::size_t begin = bounds[t], end = bounds[t + 1];
    if constexpr (std::is_void_v<V>) {
      std::stable_sort(data.keys + begin, data.keys + end, comp);
    } else {
      std::vector<std::pair<K, V>> zipped(end - begin);
      for (std::size_t i = begin; i < end; ++i)
        zipped[i - begin] = {data.keys[i], data.values[i]};
      std::stable_sort(zipped.begin(), zipped.end(),
                       [&](const auto& x, const auto& y) { return comp(x.first, y.first); });
      for (std::size_t i = begin; i < end; ++i) {
        data.keys[i] = zipped[i - begin].first;
        data.values[i] = zipped[i - begin].second;
      }
    }
  }
  if (threads == 1) return;

  // 2. Rounds of merges of neighbouring runs, between data and a buffer.
  std::vector<K> key_buffer(n);
  std::vector<std::conditional_t<std::is_void_v<V>, char, V>> value_buffer;
  merge_arrays<K, V> from = data, to{};
  to.keys = key_buffer.data();
  if constexpr (!std::is_void_v<V>) {
    value_buffer.resize(n);
    to.values = value_buffer.data();
  }
  const std::size_t piece = (n + threads - 1) / threads;
  struct task {
    std::size_t a, mid, b, d0, d1;  // runs [a, mid) and [mid, b), output [d0, d1) of b - a
  };
  std::vector<task> tasks;
  while (bounds.size() > 2) {
    tasks.clear();
    std::vector<std::size_t> next;
    for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
      next.push_back(bounds[r]);
      const std::size_t a = bounds[r];
      const std::size_t mid = bounds[r + 1];
      const std::size_t b = r + 2 < bounds.size() ? bounds[r + 2] : mid;
      for (std::size_t d = 0; d < b - a; d += piece)
        tasks.push_back({a, mid, b, d, std::min(b - a, d + piece)});
    }
    next.push_back(n);
    const auto count = static_cast<std::int64_t>(tasks.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (std::int64_t i = 0; i < count; ++i) {
      const task& w = tasks[static_cast<std::size_t>(i)];
      merge_arrays<const K, std::add_const_t<V>> left{}, right{};
      merge_arrays<K, V> out{};
      left.keys = from.keys + w.a;
      right.keys = from.keys + w.mid;
      out.keys = to.keys + w.a;
      if constexpr (!std::is_void_v<V>) {
        left.values = from.values + w.a;
        right.values = from.values + w.mid;
        out.values = to.values + w.a;
      }
      Comp c = comp;
      merge_piece<K, V>(left, w.mid - w.a, right, w.b - w.mid, out, w.d0, w.d1, c);
    }
    bounds = std::move(next);
    std::swap(from, to);
  }
  if (from.keys != data.keys) {
    std::copy(from.keys, from.keys + n, data.keys);
    if constexpr (!std::is_void_v<V>) std::copy(from.values, from.values + n, data.values);
  }
}

}  // namespace gpuprim::host_impl
