// GPU numpy.histogram through the library's NumPy rule: even bins count
// with histogram_even_into(numpy_bins) (int64 samples, which numpy compares
// as float64, with the same binner as a classifier), and the edges are
// evaluated on the device by the library's numpy_edge_rule, so they never
// cross between host and device; edges given as an array count with
// edges_bin (histogram_rule.hpp).
#include <limits>

#include "gpu.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/histogram.cuh"
#include "gpuprim/cuda/reduce.cuh"
#include "histogram_rule.hpp"

namespace gpuprim::python::gpu {

namespace {

// edges[k] = edge k of the NumPy rule, k in [0, bins], in Edge (the rule's
// values are exactly values of Edge).
template <class Edge>
__global__ void edges_kernel(Edge* edges, detail::numpy_edge_rule rule) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k <= rule.bins; k += gridDim.x * blockDim.x) {
    edges[k] = static_cast<Edge>(rule(k));
  }
}

template <class Sample>
void extremes_typed(const Sample* x, std::size_t n, Sample* host_min_max, stream_t stream) {
  const detail::scratch_buffer extremes(2 * sizeof(Sample), stream);
  Sample* e = extremes.get<Sample>();
  const Sample hi = std::numeric_limits<Sample>::has_infinity
                        ? std::numeric_limits<Sample>::infinity()
                        : std::numeric_limits<Sample>::max();
  const Sample lo = std::numeric_limits<Sample>::has_infinity
                        ? -std::numeric_limits<Sample>::infinity()
                        : std::numeric_limits<Sample>::lowest();
  // minimum / maximum propagate NaN, as numpy's a.min() / a.max().
  detail::cuda_reduce_into(x, n, e, hi, minimum{}, detail::unary_fetch<identity>{}, stream);
  detail::cuda_reduce_into(x, n, e + 1, lo, maximum{}, detail::unary_fetch<identity>{}, stream);
  detail::copy_to_host(host_min_max, e, 2 * sizeof(Sample), stream);
  synchronize(stream);
}

template <class Sample, class Edge>
void histogram_typed(const Sample* x, std::size_t n, int bins, const numpy_bins* spec,
                     const double* user_edges, Edge* edges_out, std::int64_t* counts,
                     stream_t stream) {
  const cuda_backend b = cuda.on(stream);
  const device_span<const Sample> samples(x, n);
  const device_span<std::uint64_t> c(reinterpret_cast<std::uint64_t*>(counts),
                                     static_cast<std::size_t>(bins));
  if (user_edges) {
    histogram_into(b, samples, c, edges_bin<Sample, double>{user_edges, bins});
    return;
  }
  // Both check the bins (and throw) before anything is enqueued.
  if constexpr (histogram_sample<Sample>) {
    histogram_even_into(b, samples, c, *spec);
  } else {
    histogram_into(b, samples, c, detail::numpy_binner_for<Sample>("histogram", c.size(), *spec));
  }
  const detail::numpy_edge_rule rule(*spec, bins);
  const int threads = 256;
  const int blocks = std::min(1024, (bins + threads) / threads);
  edges_kernel<<<blocks, threads, 0, stream>>>(edges_out, rule);
  detail::check_launch("edges_kernel", "gpuprim python histogram");
}

}  // namespace

void histogram_extremes(dtype in, const void* x, std::size_t n, void* host_min_max,
                        stream_t stream) {
  visit_dtype(in, [&]<class T>(type_tag<T>) {
    if constexpr (!std::is_same_v<T, bool>) {
      extremes_typed<T>(static_cast<const T*>(x), n, static_cast<T*>(host_min_max), stream);
    }
  });
}

void histogram(dtype in, const void* x, std::size_t n, int bins, const numpy_bins* spec,
               const double* user_edges, void* edges_out, std::int64_t* counts, stream_t stream) {
  visit_dtype(in, [&]<class T>(type_tag<T>) {
    if constexpr (!std::is_same_v<T, bool>) {
      using Edge = std::conditional_t<std::is_same_v<T, float>, float, double>;
      histogram_typed<T, Edge>(static_cast<const T*>(x), n, bins, spec, user_edges,
                               static_cast<Edge*>(edges_out), counts, stream);
    }
  });
}

}  // namespace gpuprim::python::gpu
