// Tuning probe for histogram_even on floats (exact bins): times the
// shared-atomics kernel over 2^28 floats in [0.5, 1.5), 1024 bins, with
// CUB's binner (floor of (x - lower) * scale in float,
// clamped: not exact at the edges), the library's exact binner, and the
// library's binner with its fast-path margin cut 16-fold and to 0 (the
// cost of the edge path and of the fast path's check, apart). Not part of
// the default build or the tests; on the GPU machine:
// cmake --build build/cuda --target gpuprim_lab_probe_histogram_float.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "gpuprim/cuda/device/device_histogram.cuh"
#include "gpuprim/histogram.hpp"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

// CUB's rule: the bin of the rounded product, clamped.
struct clamped_product_binner {
  float lower, upper, scale;
  int bins;
  __host__ __device__ int operator()(float x) const {
    if (!(x >= lower && x < upper)) return -1;
    const int b = static_cast<int>((x - lower) * scale);
    return b < bins ? b : bins - 1;
  }
};

// Every sample compared with both edges of its estimated bin in double
// (selects, no branch; valid while the estimate is within one bin).
struct every_sample_edges {
  gp::detail::even_binner<float> b;
  __host__ __device__ int operator()(float x) const {
    if (!(x >= b.lower && x < b.upper)) return -1;
    int k = static_cast<int>((x - b.lower) * b.scale);
    k = k < b.bins ? k : b.bins - 1;
    const double d = x;
    const double low = gp::detail::even_edge(b.lower, b.width, b.bins, b.inverse_bins, k);
    const double high = k + 1 < b.bins
                            ? gp::detail::even_edge(b.lower, b.width, b.bins, b.inverse_bins, k + 1)
                            : double(b.upper);
    return d < low ? k - 1 : d >= high ? k + 1 : k;
  }
};

int main() {
  const std::size_t n = std::size_t{1} << 28;
  const int bins = 1024;
  std::vector<float> host(n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.5f, 1.5f);
  for (auto& x : host)
    x = u(rng);
  float* in;
  unsigned* counts;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&counts, bins * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const gp::detail::even_binner<float> exact(0.5f, 1.5f, bins);
  std::printf("2^28 floats in [0.5, 1.5) into 1024 bins; library margin %g bins\n",
              double(exact.margin));
  std::vector<unsigned> reference;
  const auto time = [&](const char* name, auto binner) {
    const float ms = median_ms([&] {
      gc::histogram_zero<<<1, 256>>>(counts, bins, nullptr);
      gc::launch_shared_atomics<gc::byte_binning::binner>(in, n, counts, bins, binner, nullptr,
                                                          nullptr);
    });
    std::vector<unsigned> got(bins);
    CHECK_CUDA(cudaMemcpy(got.data(), counts, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
    if (reference.empty()) reference = got;
    std::printf("  %-44s %8.1f us  %6.0f GB/s  %s\n", name, ms * 1e3,
                n * sizeof(float) / (ms * 1e6),
                got == reference ? "same counts as the exact binner" : "counts differ");
  };
  time("library (exact, fast path + edge path)", exact);
  auto fewer = exact;
  fewer.margin = exact.margin / 16;
  fewer.half_minus_margin = 0.5f - fewer.margin;
  time("library, margin / 16 (edge path 16x rarer)", fewer);
  auto none = exact;
  none.margin = 0;
  none.half_minus_margin = 0.5f;
  time("library, margin 0 (fast path only)", none);
  time("clamped product (CUB's rule)",
       clamped_product_binner{0.5f, 1.5f, float(bins) / 1.0f, bins});
  time("edges for every sample, no branch", every_sample_edges{exact});
  return 0;
}
