// GPU backend of the vectorized binary search (gpuprim/search.hpp): one
// thread per query, a grid-stride loop over the queries, each search
// branch-free (the next base is a select on the comparison, so the threads
// of a warp stay converged whatever their queries: every one takes
// log2(n) + 1 steps). The loads of the first steps hit the same few
// elements for every query and stay in L1/L2; the last ones are the
// uncoalesced reads that bound the kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/detail/order/entry.hpp"

namespace gpuprim::cuda_impl {

inline constexpr int search_threads = 256;

template <bool upper, class T, class Q, class I, class Comp>
__global__ void __launch_bounds__(search_threads)
    search_kernel(const T* __restrict__ sorted, std::size_t n, const Q* __restrict__ queries,
                  std::size_t m, I* __restrict__ out, Comp comp) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m;
       i += stride) {
    const Q q = queries[i];
    std::size_t base = 0;
    std::size_t len = n;
    if (len > 0) {
      while (len > 1) {
        const std::size_t half = len / 2;
        const T e = sorted[base + half];
        const bool before = upper ? !comp(q, e) : comp(e, q);
        base = before ? base + half : base;
        len -= half;
      }
      const T e = sorted[base];
      base += static_cast<std::size_t>(upper ? !comp(q, e) : comp(e, q));
    }
    out[i] = static_cast<I>(base);
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <bool upper, class T, class Q, class I, class Comp>
void cuda_search_into(const T* sorted, std::size_t n, const Q* queries, std::size_t m, I* out,
                      Comp comp, stream_t stream) {
  if (m == 0) return;
  // Enough blocks to fill the device several times over; the grid-stride
  // loop takes the rest.
  const std::uint64_t blocks = std::min<std::uint64_t>(
      cuda_impl::ceil_div(m, cuda_impl::search_threads), std::uint64_t{1} << 20);
  cuda_impl::launch_shape shape;
  shape.grid = dim3(static_cast<unsigned>(blocks));
  shape.block = dim3(cuda_impl::search_threads);
  shape.stream = stream;
  cuda_impl::launch("search_kernel", upper ? "upper_bound" : "lower_bound",
                      &cuda_impl::search_kernel<upper, T, Q, I, Comp>, shape, sorted, n, queries,
                      m, out, comp);
}

}  // namespace gpuprim::detail
