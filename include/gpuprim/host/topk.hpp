// CPU backend of top-k. The order: for `largest`, larger values first, NaN
// before every number (NumPy's order reversed); otherwise smaller first,
// NaN last; equal values (and NaNs) by their index, the smaller first. A
// strict total order on (value, index), so the result is one and the same
// on every run and thread count.
//
// One array: each OpenMP thread keeps the k first of its contiguous chunk
// (std::nth_element over the chunk's indices); the threads' candidates
// (at most threads * k) are narrowed the same way and the k kept are
// sorted. Rows: one row per thread at a time, the same selection in a
// buffer of the thread's own.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/order_types.hpp"

namespace gpuprim::host_impl {

// Whether x[i] goes before x[j] in top-k's order.
template <class T>
struct topk_before {
  const T* x;
  bool largest;
  bool operator()(std::int64_t i, std::int64_t j) const {
    const T& a = x[i];
    const T& b = x[j];
    const bool first = largest ? nan_last_less{}(b, a) : nan_last_less{}(a, b);
    const bool second = largest ? nan_last_less{}(a, b) : nan_last_less{}(b, a);
    return first || (!second && i < j);
  }
};

// Keeps the k first of idx (by `before`) at its front, sorted.
template <class Before>
void keep_first_sorted(std::vector<std::int64_t>& idx, std::size_t k, Before before) {
  if (k < idx.size()) {
    std::nth_element(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(k), idx.end(), before);
    idx.resize(k);
  }
  std::sort(idx.begin(), idx.end(), before);
}

// values[0, k), indices[0, k): the k first of x[0, n) (1 <= k <= n).
template <class T>
void topk(host_backend backend, const T* x, std::size_t n, std::size_t k, bool largest, T* values,
          std::int64_t* indices) {
  const topk_before<T> before{x, largest};
  const int requested = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  // A chunk of fewer than 4k (and 64 Ki) elements is not worth a thread.
  const std::size_t per_thread = std::max<std::size_t>(4 * k, 65536);
  const int threads = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>(static_cast<std::size_t>(requested), n / per_thread)));
  std::vector<std::vector<std::int64_t>> kept(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const std::size_t begin = n / threads * t + std::min<std::size_t>(t, n % threads);
    const std::size_t end = n / threads * (t + 1) + std::min<std::size_t>(t + 1, n % threads);
    std::vector<std::int64_t>& idx = kept[static_cast<std::size_t>(t)];
    idx.resize(end - begin);
    for (std::size_t i = begin; i < end; ++i)
      idx[i - begin] = static_cast<std::int64_t>(i);
    if (k < idx.size()) {
      std::nth_element(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(k), idx.end(),
                       before);
      idx.resize(k);
    }
  }
  std::vector<std::int64_t> all = std::move(kept[0]);
  for (int t = 1; t < threads; ++t)
    all.insert(all.end(), kept[static_cast<std::size_t>(t)].begin(),
               kept[static_cast<std::size_t>(t)].end());
  keep_first_sorted(all, k, before);
  for (std::size_t i = 0; i < k; ++i) {
    indices[i] = all[i];
    values[i] = x[all[i]];
  }
}

// Every row of x (rows x cols, leading dimension ldx): its k first, in row
// r of values (leading dimension ldv) and indices (ldi).
template <class T>
void topk_rows(host_backend backend, const T* x, std::size_t rows, std::size_t cols,
               std::size_t ldx, std::size_t k, bool largest, T* values, std::size_t ldv,
               std::int64_t* indices, std::size_t ldi) {
  const int requested = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  const std::size_t work = rows * cols;
  const int threads = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>({static_cast<std::size_t>(requested), rows, work / 16384 + 1})));
  const auto count = static_cast<std::int64_t>(rows);
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::int64_t> idx;
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t r = 0; r < count; ++r) {
      const T* row = x + static_cast<std::size_t>(r) * ldx;
      idx.resize(cols);
      for (std::size_t i = 0; i < cols; ++i)
        idx[i] = static_cast<std::int64_t>(i);
      keep_first_sorted(idx, k, topk_before<T>{row, largest});
      T* v = values + static_cast<std::size_t>(r) * ldv;
      std::int64_t* ix = indices + static_cast<std::size_t>(r) * ldi;
      for (std::size_t i = 0; i < k; ++i) {
        ix[i] = idx[i];
        v[i] = row[idx[i]];
      }
    }
  }
}

}  // namespace gpuprim::host_impl
