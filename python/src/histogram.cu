// GPU numpy.histogram. With a range, the library's NumPy rule
// (histogram_even_into with numpy_bins) counts and its edge rule writes the
// edges on the device. Without one, the data's min and max are reduced on
// the device and the edges made there (nothing waits for the host), then
// the samples are counted under numpy_bin (histogram_rule.hpp), which reads
// those edges.
#include <limits>

#include "gpu.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/histogram.cuh"
#include "gpuprim/cuda/reduce.cuh"
#include "gpuprim/histogram.hpp"
#include "histogram_rule.hpp"

namespace gpuprim::python::gpu {

namespace {

// edges[0, bins] = linspace(min, max, bins + 1) in Edge over the samples'
// (min, max) read from `extremes`, computed in the sample's floating type
// (as NumPy's linspace of two float32 scalars); a min == max range widens
// by 0.5 each side.
template <class Sample, class Edge>
__global__ void data_edges_kernel(Edge* edges, int bins, const Sample* extremes) {
  using C = std::conditional_t<std::is_same_v<Sample, float>, float, double>;
  C lo = static_cast<C>(extremes[0]);
  C hi = static_cast<C>(extremes[1]);
  if (lo == hi) {
    lo = lo - C(0.5);
    hi = hi + C(0.5);
  }
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k <= bins; k += gridDim.x * blockDim.x) {
    edges[k] = static_cast<Edge>(linspace_edge<C>(lo, hi, bins, k));
  }
}

// edges[k] = edge k of the NumPy rule, k in [0, rule.bins] (each exactly a
// value of Edge).
template <class Edge>
__global__ void rule_edges_kernel(Edge* edges, detail::numpy_edge_rule rule) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k <= rule.bins; k += gridDim.x * blockDim.x) {
    edges[k] = static_cast<Edge>(rule(k));
  }
}

constexpr int edge_threads = 256;

int edge_blocks(int bins) {
  return std::min(1024, (bins + edge_threads) / edge_threads);
}

template <class Sample, class Edge>
void histogram_typed(const Sample* x, std::size_t n, int bins, bool range_given, double first,
                     double last, const double* user_edges, Edge* edges_out, std::int64_t* counts,
                     stream_t stream) {
  const cuda_backend b = cuda.on(stream);
  const device_span<const Sample> samples(x, n);
  const device_span<std::uint64_t> c(reinterpret_cast<std::uint64_t*>(counts),
                                     static_cast<std::size_t>(bins));
  if (user_edges) {
    histogram_into(b, samples, c, numpy_bin<Sample, double>{user_edges, bins, false});
    return;
  }
  if (range_given) {
    // Checks the bins (and throws) before anything is enqueued.
    const numpy_bins spec = numpy_bins::with_range<Sample>(first, last);
    histogram_even_into(b, samples, c, spec);
    rule_edges_kernel<<<edge_blocks(bins), edge_threads, 0, stream>>>(
        edges_out, detail::numpy_edge_rule(spec, bins));
    detail::check_launch("rule_edges_kernel", "gpuprim python histogram");
    return;
  }
  // The range is the data's: its min and max reduced on the device.
  const detail::scratch_buffer extremes(2 * sizeof(Sample), stream);
  Sample* e = extremes.get<Sample>();
  const Sample hi = std::numeric_limits<Sample>::has_infinity
                        ? std::numeric_limits<Sample>::infinity()
                        : std::numeric_limits<Sample>::max();
  const Sample lo = std::numeric_limits<Sample>::has_infinity
                        ? -std::numeric_limits<Sample>::infinity()
                        : std::numeric_limits<Sample>::lowest();
  detail::cuda_reduce_into(x, n, e, hi, minimum{}, detail::unary_fetch<identity>{}, stream);
  detail::cuda_reduce_into(x, n, e + 1, lo, maximum{}, detail::unary_fetch<identity>{}, stream);
  data_edges_kernel<<<edge_blocks(bins), edge_threads, 0, stream>>>(edges_out, bins, e);
  detail::check_launch("data_edges_kernel", "gpuprim python histogram");
  histogram_into(b, samples, c, numpy_bin<Sample, Edge>{edges_out, bins, true});
}

}  // namespace

void histogram(dtype in, const void* x, std::size_t n, int bins, bool range_given, double first,
               double last, const double* user_edges, void* edges_out, std::int64_t* counts,
               stream_t stream) {
  visit_dtype(in, [&]<class T>(type_tag<T>) {
    // The caller rejects the others (bool, float16, 64-bit integers).
    if constexpr (histogram_sample<T>) {
      using Edge = std::conditional_t<std::is_same_v<T, float>, float, double>;
      histogram_typed<T, Edge>(static_cast<const T*>(x), n, bins, range_given, first, last,
                               user_edges, static_cast<Edge*>(edges_out), counts, stream);
    }
  });
}

}  // namespace gpuprim::python::gpu
