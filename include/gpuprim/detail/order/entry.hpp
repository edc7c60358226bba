// The order family's GPU entry points, declared for every translation unit
// (defined in gpuprim/cuda/device/device_{search,merge,topk}.cuh, compiled
// into the library for the precompiled instances of precompiled.hpp by
// src/order/), and the check a plain-C++ caller meets for anything else.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/order/precompiled.hpp"

namespace gpuprim::detail {

// Enqueues, on `stream`, out[i] = the lower (upper, when `upper`) bound of
// queries[i] in sorted[0, n), for i < m. Nothing is synchronized.
template <bool upper, class T, class Q, class I, class Comp>
void cuda_search_into(const T* sorted, std::size_t n, const Q* queries, std::size_t m, I* out,
                      Comp comp, stream_t stream);

template <bool upper, class T, class Q, class I, class Comp>
void cuda_search_checked(const T* sorted, std::size_t n, const Q* queries, std::size_t m, I* out,
                         Comp comp, stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_search<upper, T, Q, I, Comp>,
                "gpuprim: this search's element type / index type / comparator is not "
                "precompiled into the library; call it from a .cu file that includes "
                "gpuprim/cuda/search.cuh");
#endif
  on_cuda(upper ? "upper_bound" : "lower_bound",
          [&] { cuda_search_into<upper>(sorted, n, queries, m, out, comp, stream); });
}

// Enqueues the stable merge of (ka, va)[0, na) and (kb, vb)[0, nb) into
// (ko, vo); V = order_no_value (null value pointers) for keys only.
template <class K, class V, class Comp>
void cuda_merge_into(const K* ka, const V* va, std::size_t na, const K* kb, const V* vb,
                     std::size_t nb, K* ko, V* vo, Comp comp, stream_t stream);

// Enqueues the stable in-place sort of keys[0, n) (and values with them).
template <class K, class V, class Comp>
void cuda_merge_sort_into(K* keys, V* values, std::size_t n, Comp comp, stream_t stream);

// Enqueues the top-k of every row of x (rows x cols, leading dimension ld):
// values and int64 column indices, rows x k each.
template <class T>
void cuda_topk_into(const T* x, std::size_t rows, std::size_t cols, std::size_t ld, std::size_t k,
                    bool largest, T* values, std::size_t ldv, std::int64_t* indices,
                    std::size_t ldi, stream_t stream);

template <class K, class V, class Comp>
void cuda_merge_checked(const char* algorithm, const K* ka, const V* va, std::size_t na,
                        const K* kb, const V* vb, std::size_t nb, K* ko, V* vo, Comp comp,
                        stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_merge<K, V, Comp>,
                "gpuprim: this merge's element types / comparator are not precompiled into the "
                "library; call it from a .cu file that includes gpuprim/cuda/merge.cuh");
#endif
  on_cuda(algorithm, [&] { cuda_merge_into(ka, va, na, kb, vb, nb, ko, vo, comp, stream); });
}

template <class K, class V, class Comp>
void cuda_merge_sort_checked(const char* algorithm, K* keys, V* values, std::size_t n, Comp comp,
                             stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_merge_sort<K, V, Comp>,
                "gpuprim: this merge sort's element types / comparator are not precompiled into "
                "the library; call it from a .cu file that includes gpuprim/cuda/merge.cuh");
#endif
  on_cuda(algorithm, [&] { cuda_merge_sort_into(keys, values, n, comp, stream); });
}

template <class T>
void cuda_topk_checked(const char* algorithm, const T* x, std::size_t rows, std::size_t cols,
                       std::size_t ld, std::size_t k, bool largest, T* values, std::size_t ldv,
                       std::int64_t* indices, std::size_t ldi, stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_topk<T>,
                "gpuprim: top-k on the GPU is precompiled for the arithmetic types; call it from "
                "a .cu file that includes gpuprim/cuda/topk.cuh for others");
#endif
  on_cuda(algorithm, [&] {
    cuda_topk_into(x, rows, cols, ld, k, largest, values, ldv, indices, ldi, stream);
  });
}

}  // namespace gpuprim::detail
