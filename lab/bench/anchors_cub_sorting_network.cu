// The CUB anchor for batched small sorts: cub::DeviceSegmentedSort::SortKeys.
#include <cuda_runtime_api.h>

#include <climits>
#include <cub/device/device_segmented_sort.cuh>
#include <stdexcept>

#include "anchors_cub.cuh"

namespace gpuprim::bench {
namespace {

template <class T>
cudaError_t call_cub(void* temp, std::size_t& temp_bytes, const T* in, T* out, std::size_t n,
                     std::size_t segments, const int* offsets, cudaStream_t stream) {
  if (n > static_cast<std::size_t>(INT_MAX) || segments > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("cub_segmented_sort: the anchor takes fewer than 2^31 keys");
  }
  return cub::DeviceSegmentedSort::SortKeys(temp, temp_bytes, in, out, static_cast<int>(n),
                                            static_cast<int>(segments), offsets, offsets + 1,
                                            stream);
}

}  // namespace

template <class T>
cub_segmented_sort<T>::cub_segmented_sort(std::size_t n, std::size_t num_segments, stream_t stream)
    : cub_anchor(stream, make_cub_storage([&](void* temp, std::size_t& bytes) {
                   return call_cub<T>(temp, bytes, nullptr, nullptr, n, num_segments, nullptr,
                                      stream);
                 })),
      n_(n),
      num_segments_(num_segments) {}

template <class T>
void cub_segmented_sort<T>::enqueue(const T* keys_in, T* keys_out, const int* offsets) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return call_cub<T>(temp, bytes, keys_in, keys_out, n_, num_segments_, offsets, stream_);
  });
}

template class cub_segmented_sort<float>;

}  // namespace gpuprim::bench
