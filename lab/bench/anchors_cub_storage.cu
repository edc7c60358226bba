// The CUB anchors' temporary storage (anchors.hpp, cub_storage).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <utility>

#include "anchors.hpp"
#include "gpuprim/cuda/support/check.cuh"

namespace gpuprim::bench {

cub_storage::cub_storage(std::size_t bytes) : bytes_(bytes) {
  GPUPRIM_CUDA_CHECK(cudaMalloc(&data_, std::max<std::size_t>(bytes, 1)), "cub anchor");
}

cub_storage::~cub_storage() {
  cudaFree(data_);
}

cub_storage::cub_storage(cub_storage&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

cub_storage& cub_storage::operator=(cub_storage&& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(bytes_, other.bytes_);
  return *this;
}

}  // namespace gpuprim::bench
