// numpy.histogram's bin edges on the device: edge b of np.linspace(lower,
// upper, bins + 1) rounded to the edges' type, by the NumPy rule's own
// arithmetic (numpy_edge_rule, gpuprim/detail/histogram/numpy_rule.hpp), one
// thread an edge. The host checked the same edges (they increase) when it
// made the binner, so nothing here can fail but the launch.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/detail/histogram/entry.hpp"

namespace gpuprim::cuda_impl {

inline constexpr int numpy_edges_threads = 256;

// 1. Each thread writes the edges b = its index, + the grid's size, ...
//    up to rule.bins (bins + 1 edges), each computed alone (no scan, so an
//    edge is the same value the host's rule gives, bit for bit).
template <class Edge>
__global__ void numpy_edges(Edge* edges, detail::numpy_edge_rule rule) {
  const int stride = static_cast<int>(gridDim.x * blockDim.x);
  for (int b = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); b <= rule.bins;
       b += stride) {
    edges[b] = static_cast<Edge>(rule(b));
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class Edge>
void cuda_numpy_edges_into(Edge* edges, numpy_edge_rule rule, stream_t stream) {
  using namespace cuda_impl;
  const std::uint64_t count = static_cast<std::uint64_t>(rule.bins) + 1;
  const unsigned grid =
      static_cast<unsigned>(std::min<std::uint64_t>(ceil_div(count, numpy_edges_threads), 1024));
  launch("numpy_edges", "numpy_histogram", numpy_edges<Edge>,
         {grid, numpy_edges_threads, 0, reinterpret_cast<cudaStream_t>(stream)}, edges, rule);
}

#if !defined(GPUPRIM_INSTANTIATING)
extern template void cuda_numpy_edges_into<float>(float*, numpy_edge_rule, stream_t);
extern template void cuda_numpy_edges_into<double>(double*, numpy_edge_rule, stream_t);
#endif

}  // namespace gpuprim::detail
