// The order family's GPU entry points, declared for every translation unit
// (defined in gpuprim/cuda/device/device_search.cuh, compiled into the
// library for the precompiled instances of precompiled.hpp by src/order/),
// and the check a plain-C++ caller meets for anything else.
#pragma once

#include <cstddef>

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

}  // namespace gpuprim::detail
