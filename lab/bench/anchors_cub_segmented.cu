// The CUB anchor for the segmented family.
#include <cuda_runtime_api.h>

#include <cub/device/device_segmented_reduce.cuh>

#include "anchors.hpp"
#include "gpuprim/cuda/detail/check.cuh"

namespace gpuprim::bench {

template <class T>
cub_segmented_sum<T>::cub_segmented_sum(std::size_t num_segments, stream_t stream)
    : num_segments_(num_segments), stream_(stream) {
  GPUPRIM_CUDA_CHECK(
      cub::DeviceSegmentedReduce::Sum(
          nullptr, temp_storage_bytes_, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
          static_cast<std::int64_t>(num_segments_), static_cast<const std::uint64_t*>(nullptr),
          static_cast<const std::uint64_t*>(nullptr), stream_),
      "cub anchor");
  GPUPRIM_CUDA_CHECK(cudaMalloc(&temp_storage_, temp_storage_bytes_ ? temp_storage_bytes_ : 1),
                     "cub anchor");
}

template <class T>
cub_segmented_sum<T>::~cub_segmented_sum() {
  cudaFree(temp_storage_);
}

template <class T>
void cub_segmented_sum<T>::enqueue(const T* in, const std::uint64_t* offsets, T* out) const {
  std::size_t temp_bytes = temp_storage_bytes_;
  GPUPRIM_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(temp_storage_, temp_bytes, in, out,
                                                     static_cast<std::int64_t>(num_segments_),
                                                     offsets, offsets + 1, stream_),
                     "cub anchor");
}

template class cub_segmented_sum<float>;

}  // namespace gpuprim::bench
