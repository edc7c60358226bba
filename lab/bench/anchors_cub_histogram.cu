// The CUB anchor for the histogram family: cub::DeviceHistogram::HistogramEven.
#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>
#include <cub/device/device_histogram.cuh>

#include "anchors_cub.cuh"

namespace gpuprim::bench {
namespace {

// Fewer than 2^31 samples go through CUB's 32-bit offsets, as for the others.
template <class Sample, class Level>
cudaError_t call_cub(void* temp, std::size_t& temp_bytes, const Sample* in, unsigned* counts,
                     int bins, Level lower, Level upper, std::size_t n, cudaStream_t stream) {
  if (n <= static_cast<std::size_t>(INT_MAX)) {
    return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, counts, bins + 1, lower, upper,
                                               static_cast<int>(n), stream);
  }
  return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, counts, bins + 1, lower, upper,
                                             static_cast<std::int64_t>(n), stream);
}

}  // namespace

template <class Sample, class Level>
cub_histogram_even<Sample, Level>::cub_histogram_even(int bins, Level lower, Level upper,
                                                      std::size_t n, stream_t stream)
    : cub_anchor(stream, make_cub_storage([&](void* temp, std::size_t& bytes) {
                   return call_cub<Sample, Level>(temp, bytes, nullptr, nullptr, bins, lower, upper,
                                                  n, stream);
                 })),
      bins_(bins),
      lower_(lower),
      upper_(upper),
      n_(n) {}

template <class Sample, class Level>
void cub_histogram_even<Sample, Level>::enqueue(const Sample* in, unsigned* counts) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return call_cub<Sample, Level>(temp, bytes, in, counts, bins_, lower_, upper_, n_, stream_);
  });
}

template class cub_histogram_even<std::uint8_t, int>;
template class cub_histogram_even<float, float>;

}  // namespace gpuprim::bench
