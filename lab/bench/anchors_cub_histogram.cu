// The CUB anchor for the histogram family: cub::DeviceHistogram::HistogramEven.
#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>
#include <cub/device/device_histogram.cuh>

#include "anchors.hpp"
#include "gpuprim/cuda/detail/check.cuh"

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
    : bins_(bins), lower_(lower), upper_(upper), n_(n), stream_(stream) {
  GPUPRIM_CUDA_CHECK(
      (call_cub<Sample, Level>)(nullptr, temp_storage_bytes_, nullptr, nullptr, bins_, lower_,
                                upper_, n_, reinterpret_cast<cudaStream_t>(stream_)),
      "cub anchor");
  GPUPRIM_CUDA_CHECK(cudaMalloc(&temp_storage_, temp_storage_bytes_ ? temp_storage_bytes_ : 1),
                     "cub anchor");
}

template <class Sample, class Level>
cub_histogram_even<Sample, Level>::~cub_histogram_even() {
  cudaFree(temp_storage_);
}

template <class Sample, class Level>
void cub_histogram_even<Sample, Level>::enqueue(const Sample* in, unsigned* counts) const {
  std::size_t temp_bytes = temp_storage_bytes_;
  GPUPRIM_CUDA_CHECK((call_cub<Sample, Level>)(temp_storage_, temp_bytes, in, counts, bins_, lower_,
                                               upper_, n_, reinterpret_cast<cudaStream_t>(stream_)),
                     "cub anchor");
}

template class cub_histogram_even<std::uint8_t, int>;
template class cub_histogram_even<float, float>;

}  // namespace gpuprim::bench
