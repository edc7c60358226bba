// How the CUB anchors call CUB: its two-phase form, call(temp, bytes) with
// temp == nullptr asking for the size of the temporary storage.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "anchors.hpp"
#include "gpuprim/cuda/detail/check.cuh"

namespace gpuprim::bench {

// The storage `call` asks for, allocated (cudaError_t call(void* temp,
// std::size_t& bytes)).
template <class Call>
cub_storage make_cub_storage(Call call) {
  std::size_t bytes = 0;
  GPUPRIM_CUDA_CHECK(call(nullptr, bytes), "cub anchor");
  return cub_storage(bytes);
}

// Enqueues `call` with the storage made for it.
template <class Call>
void run_cub(const cub_storage& storage, Call call) {
  std::size_t bytes = storage.bytes();
  GPUPRIM_CUDA_CHECK(call(storage.data(), bytes), "cub anchor");
}

}  // namespace gpuprim::bench
