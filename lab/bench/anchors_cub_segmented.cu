// The CUB anchor for the segmented family.
#include <cuda_runtime_api.h>

#include <cub/device/device_segmented_reduce.cuh>

#include "anchors_cub.cuh"

namespace gpuprim::bench {

template <class T>
cub_segmented_sum<T>::cub_segmented_sum(std::size_t num_segments, stream_t stream)
    : cub_anchor(stream, make_cub_storage([&](void* temp, std::size_t& bytes) {
                   const std::uint64_t* no_offsets = nullptr;
                   return cub::DeviceSegmentedReduce::Sum(
                       temp, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                       static_cast<std::int64_t>(num_segments), no_offsets, no_offsets, stream);
                 })),
      num_segments_(num_segments) {}

template <class T>
void cub_segmented_sum<T>::enqueue(const T* in, const std::uint64_t* offsets, T* out) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out,
                                           static_cast<std::int64_t>(num_segments_), offsets,
                                           offsets + 1, stream_);
  });
}

template class cub_segmented_sum<float>;

}  // namespace gpuprim::bench
