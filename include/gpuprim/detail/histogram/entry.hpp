// The histogram family's entry points into its backends, side by side.
//
//   host (OpenMP, gpuprim/host/histogram.hpp)   CUDA (declared here)
//   host_impl::histogram                      cuda_histogram_into
//   detail::checked_numpy_edges (numpy_rule)    cuda_numpy_edges_into
//
// The CUDA ones are defined in gpuprim/cuda/device/ and precompiled in
// src/histogram/; the _checked forms add the check that a plain C++ caller
// names a precompiled instance.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/histogram/numpy_rule.hpp"
#include "gpuprim/detail/histogram/precompiled.hpp"

namespace gpuprim::detail {

// Defined in gpuprim/cuda/device/device_histogram.cuh. Enqueues on `stream`:
// counts[0, bins) = the histogram of samples[0, n) under `binner`, and, when
// left_out is not null, *left_out = the number of samples it rejected.
template <class Sample, class Counter, class Binner>
void cuda_histogram_into(const Sample* samples, std::size_t n, Counter* counts, int bins,
                         Binner binner, std::uint64_t* left_out, stream_t stream);

template <class Sample, class Counter, class Binner>
void cuda_histogram_checked(device_span<const Sample> samples, device_span<Counter> counts,
                            Binner binner, std::uint64_t* left_out, stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_histogram<Sample, Counter, Binner>,
                "gpuprim: this histogram's sample type / counter / classifier is not precompiled "
                "into the library; call it from a .cu file that includes "
                "gpuprim/cuda/histogram.cuh");
#endif
  on_cuda("histogram", [&] {
    cuda_histogram_into(samples.data(), samples.size(), counts.data(),
                        static_cast<int>(counts.size()), binner, left_out, stream);
  });
}

// Defined in gpuprim/cuda/device/device_numpy_edges.cuh (precompiled for
// float and double edges). Enqueues on `stream`: edges[b] = rule(b) for b in
// [0, rule.bins], each rounded to Edge (exactly: Edge holds the rule's edge
// type).
template <class Edge>
void cuda_numpy_edges_into(Edge* edges, numpy_edge_rule rule, stream_t stream);

template <class Edge>
void cuda_numpy_edges_checked(device_span<Edge> edges, const numpy_edge_rule& rule,
                              stream_t stream) {
  static_assert(std::is_same_v<Edge, float> || std::is_same_v<Edge, double>,
                "gpuprim: NumPy histogram edges are float or double");
  on_cuda("numpy_histogram", [&] { cuda_numpy_edges_into(edges.data(), rule, stream); });
}

}  // namespace gpuprim::detail
