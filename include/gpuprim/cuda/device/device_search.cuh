// GPU backend of the vectorized binary search (gpuprim/search.hpp): one
// thread per query, a grid-stride loop over the queries, each search
// branch-free (the next base is a select on the comparison, so the threads
// of a warp stay converged whatever their queries: every one takes
// log2(n) + 1 steps).
//
// The halving is the same for every query (len becomes len - len / 2 at
// each step, whichever way the query goes), so the elements the first D
// steps can probe form a fixed implicit tree of 2^D - 1 nodes: node j
// (from 1) at step L = floor(log2 j) is the probe reached by the turns
// written in j's bits below its leading one. The shape of the algorithm:
//  1. search_tree_kernel: each block (a few per SM, each looping over many
//     queries) copies the tree's nodes into shared memory (D from the
//     element size: 32 KiB of nodes);
//  2. each query takes its first D steps in shared memory (a warp's lanes
//     that share a node read it as one broadcast, where the global loads
//     of these steps were one uncoalesced request per lane), then the rest
//     from global memory as before.
// Production takes search_kernel, the same search from global memory only,
// for every call: the tree (for calls of at least search_tree_min_queries
// queries) measured slower, 6.80 against 5.98 ms for 2^24 random float
// queries into 2^28 keys on an H100 (bench/results/h100-2026-12-08-sort-designs.md):
// the top levels it serves from shared memory are L1/L2 hits anyway, and
// the persistent grid keeps fewer of the latency-bound bottom steps in
// flight. It stays as a candidate: set search_tree_min_queries (a test and
// probe hook) to take it.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/detail/order/entry.hpp"

namespace gpuprim::cuda_impl {

inline constexpr int search_threads = 256;

// The search's remaining steps from global memory: the insertion point of
// q in sorted[base, base + len), len > 0.
template <bool upper, class T, class Q, class Comp>
__device__ __forceinline__ std::size_t search_rest(const T* __restrict__ sorted, const Q& q,
                                                   std::size_t base, std::size_t len, Comp& comp) {
  while (len > 1) {
    const std::size_t half = len / 2;
    const T e = sorted[base + half];
    const bool before = upper ? !comp(q, e) : comp(e, q);
    base = before ? base + half : base;
    len -= half;
  }
  const T e = sorted[base];
  return base + static_cast<std::size_t>(upper ? !comp(q, e) : comp(e, q));
}

template <bool upper, class T, class Q, class I, class Comp>
__global__ void __launch_bounds__(search_threads)
    search_kernel(const T* __restrict__ sorted, std::size_t n, const Q* __restrict__ queries,
                  std::size_t m, I* __restrict__ out, Comp comp) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m;
       i += stride) {
    const Q q = queries[i];
    out[i] = static_cast<I>(n > 0 ? search_rest<upper>(sorted, q, 0, n, comp) : 0);
  }
}

// The tree's depth for elements of type T: as many levels as 32 KiB holds.
template <class T>
constexpr int search_tree_depth() {
  int depth = 0;
  while (((std::size_t{2} << depth) - 1) * sizeof(T) <= 32768)
    ++depth;
  return depth;
}
// The fewest queries that take the tree: none by default (see the top).
inline std::size_t search_tree_min_queries = ~std::size_t{0};

// How many steps with len > 1 a search of n elements takes.
inline int search_steps(std::size_t n) {
  int steps = 0;
  for (std::size_t len = n; len > 1; len -= len / 2)
    ++steps;
  return steps;
}

// search_kernel with the first `levels` (from 1 to search_tree_depth<T>() and
// to search_steps(n)) steps in shared memory.
template <bool upper, class T, class Q, class I, class Comp>
__global__ void __launch_bounds__(search_threads)
    search_tree_kernel(const T* __restrict__ sorted, std::size_t n, const Q* __restrict__ queries,
                       std::size_t m, I* __restrict__ out, Comp comp, int levels) {
  constexpr int capacity = search_tree_depth<T>() > 0 ? (1 << search_tree_depth<T>()) - 1 : 1;
  struct alignas(T) storage {
    unsigned char bytes[capacity * sizeof(T)];
  };
  __shared__ storage shared;
  T* tree = reinterpret_cast<T*>(shared.bytes);
  // 1.
  const int nodes = (1 << levels) - 1;
  for (int j = static_cast<int>(threadIdx.x) + 1; j <= nodes; j += search_threads) {
    const int level = 31 - __clz(j);
    std::size_t base = 0, len = n;
    for (int l = 0; l < level; ++l) {
      const std::size_t half = len / 2;
      if ((j >> (level - 1 - l)) & 1) base += half;
      len -= half;
    }
    tree[j - 1] = sorted[base + len / 2];
  }
  __syncthreads();
  // 2.
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m;
       i += stride) {
    const Q q = queries[i];
    std::size_t base = 0, len = n;
    int node = 1;
    for (int l = 0; l < levels; ++l) {
      const std::size_t half = len / 2;
      const bool before = upper ? !comp(q, tree[node - 1]) : comp(tree[node - 1], q);
      base = before ? base + half : base;
      node = 2 * node + static_cast<int>(before);
      len -= half;
    }
    out[i] = static_cast<I>(search_rest<upper>(sorted, q, base, len, comp));
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <bool upper, class T, class Q, class I, class Comp>
void cuda_search_into(const T* sorted, std::size_t n, const Q* queries, std::size_t m, I* out,
                      Comp comp, stream_t stream) {
  using namespace cuda_impl;
  if (m == 0) return;
  const char* algorithm = upper ? "upper_bound" : "lower_bound";
  launch_shape shape;
  shape.block = dim3(search_threads);
  shape.stream = stream;
  const int levels = std::min(search_tree_depth<T>(), search_steps(n));
  if (m >= search_tree_min_queries && levels > 0) {
    // A few blocks per SM, each copying the tree once.
    shape.grid = dim3(static_cast<unsigned>(std::min<std::uint64_t>(
        ceil_div(m, search_threads), std::uint64_t(current_multiprocessor_count()) * 6)));
    launch("search_tree_kernel", algorithm, &search_tree_kernel<upper, T, Q, I, Comp>, shape,
           sorted, n, queries, m, out, comp, levels);
    return;
  }
  // Enough blocks to fill the device several times over; the grid-stride
  // loop takes the rest.
  shape.grid = dim3(static_cast<unsigned>(
      std::min<std::uint64_t>(ceil_div(m, search_threads), std::uint64_t{1} << 20)));
  launch("search_kernel", algorithm, &search_kernel<upper, T, Q, I, Comp>, shape, sorted, n,
         queries, m, out, comp);
}

}  // namespace gpuprim::detail
