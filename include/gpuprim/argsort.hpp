// Batched argsort: the positions that sort each run of a batch of arrays
// (the rows of a matrix), beside sort_batched and segmented_sort
// (gpuprim/sorting_network.hpp), which sort keys only.
//
//   // keys: rows * cols values; indices: int64, rows * cols.
//   gp::argsort_batched(gp::cuda, d_keys, cols, d_indices);
//   gp::argsort_batched(gp::host, keys, cols, indices, sorted, gp::sort_order::descending);
//
// Semantics, for every backend:
//  - Run a is keys[a * array_size, (a + 1) * array_size); indices[a *
//    array_size + j] is the position within run a of its j-th key in order,
//    as numpy.argsort(kind="stable") along the last axis. With `sorted_keys`
//    the keys in that order are written too.
//  - gp::sort's order (sort_types.hpp): -0.0 before +0.0, NaN
//    last in both directions; stable: equal keys keep input order, also
//    descending.
//  - keys.size() must be a multiple of array_size (> 0 unless keys is
//    empty); the outputs have keys.size() elements (and must not overlap
//    the keys). Errors are std::invalid_argument, thrown before anything is
//    written.
// The GPU form is two radix sorts (the keys with their positions, then the
// positions by run) and a gather (cuda/device/device_argsort_batched.cuh),
// precompiled for the radix sort's key types; the host sorts each run with
// the host radix sort, runs side by side on OpenMP threads.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <ranges>
#include <span>
#include <type_traits>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/sort/argsort_batched.hpp"
#include "gpuprim/sort.hpp"

namespace gpuprim {

namespace detail {

template <class K>
void host_argsort_batched(host_backend backend, std::span<const K> keys, std::size_t array_size,
                          std::int64_t* indices, K* sorted_keys, sort_order order) {
  const std::size_t n = keys.size();
  if (n == 0) return;
  const std::size_t rows = n / array_size;
  if (rows == 1) {
    std::vector<std::int64_t> iota(n);
    std::iota(iota.begin(), iota.end(), std::int64_t{0});
    std::vector<K> scratch(sorted_keys ? 0 : n);
    K* out = sorted_keys ? sorted_keys : scratch.data();
    gpuprim::sort_by_key(backend, keys, std::span<const std::int64_t>(iota), std::span<K>(out, n),
                         std::span<std::int64_t>(indices, n), order);
    return;
  }
  // One run per thread at a time, each with the one-thread radix sort.
  const int threads = backend.thread_count;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    std::vector<K> scratch(sorted_keys ? 0 : array_size);
    std::vector<std::int64_t> iota(array_size);
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t r = 0; r < static_cast<std::int64_t>(rows); ++r) {
      const std::size_t begin = static_cast<std::size_t>(r) * array_size;
      std::iota(iota.begin(), iota.end(), std::int64_t{0});
      K* out = sorted_keys ? sorted_keys + begin : scratch.data();
      gpuprim::sort_by_key(gpuprim::host.threads(1), keys.subspan(begin, array_size),
                           std::span<const std::int64_t>(iota), std::span<K>(out, array_size),
                           std::span<std::int64_t>(indices + begin, array_size), order);
    }
  }
}

}  // namespace detail

template <host_range R, host_range I>
void argsort_batched(host_backend backend, const R& keys, std::size_t array_size, I&& indices,
                     sort_order order = sort_order::ascending) {
  const auto k = detail::host_span(keys);
  auto i = detail::writable_host_span(indices);
  detail::check_argsort_batched(k.size(), array_size, i.size(), nullptr);
  using K = std::remove_cv_t<typename decltype(k)::element_type>;
  detail::host_argsort_batched<K>(backend, k, array_size, i.data(), nullptr, order);
}

template <host_range R, host_range I, host_range O>
void argsort_batched(host_backend backend, const R& keys, std::size_t array_size, I&& indices,
                     O&& sorted_keys, sort_order order = sort_order::ascending) {
  const auto k = detail::host_span(keys);
  auto i = detail::writable_host_span(indices);
  auto s = detail::writable_host_span(sorted_keys);
  const std::size_t sorted_size = s.size();
  detail::check_argsort_batched(k.size(), array_size, i.size(), &sorted_size);
  using K = std::remove_cv_t<typename decltype(k)::element_type>;
  detail::host_argsort_batched<K>(backend, k, array_size, i.data(), s.data(), order);
}

namespace detail {

template <class K>
void device_argsort_batched(cuda_backend backend, device_span<const K> keys, std::size_t array_size,
                            device_span<std::int64_t> indices, std::type_identity_t<K>* sorted_keys,
                            const std::size_t* sorted_size, sort_order order) {
#if !defined(__CUDACC__)
  static_assert(precompiled_argsort_batched<K>,
                "gpuprim: argsort_batched is precompiled for the radix sort's key types; call "
                "it from a .cu file that includes gpuprim/cuda/device/device_argsort_batched.cuh");
#endif
  check_argsort_batched(keys.size(), array_size, indices.size(), sorted_size);
  if (keys.empty()) return;
  on_cuda("argsort_batched", [&] {
    cuda_argsort_batched<K>(keys.data(), sorted_keys, indices.data(), keys.size() / array_size,
                            array_size, order, backend.stream);
  });
}

}  // namespace detail

template <device_range R, device_range I>
void argsort_batched(cuda_backend backend, const R& keys, std::size_t array_size, I&& indices,
                     sort_order order = sort_order::ascending) {
  detail::device_argsort_batched(backend, as_device_span(keys), array_size,
                                 writable_device_span(indices), nullptr, nullptr, order);
}

template <device_range R, device_range I, device_range O>
void argsort_batched(cuda_backend backend, const R& keys, std::size_t array_size, I&& indices,
                     O&& sorted_keys, sort_order order = sort_order::ascending) {
  auto s = writable_device_span(sorted_keys);
  const std::size_t sorted_size = s.size();
  detail::device_argsort_batched(backend, as_device_span(keys), array_size,
                                 writable_device_span(indices), s.data(), &sorted_size, order);
}

}  // namespace gpuprim
