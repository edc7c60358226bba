// What the distributed algorithms need of the GPU beyond the core runtime:
// pinned host buffers for staging MPI messages, and the carry-in of a GPU
// scan. Defined in src/dist (plain host
// code without the CUDA backend, where only the host parts are ever called).
#pragma once

#include <cstddef>
#include <utility>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::detail {

// Host memory for staging GPU data through MPI: page-locked (cudaMallocHost)
// when the CUDA backend is built, so copies to and from the GPU run at full
// speed; ordinary memory otherwise.
class pinned_buffer {
 public:
  pinned_buffer() = default;
  explicit pinned_buffer(std::size_t bytes);
  pinned_buffer(pinned_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  pinned_buffer& operator=(pinned_buffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    return *this;
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  ~pinned_buffer();

  template <class T>
  T* get() const {
    return static_cast<T*>(data_);
  }
  std::size_t size_bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// out[i] = op(carry, out[i]) for i < n in device memory, enqueued on stream.
// Instantiated for the precompiled scans' types and operators, the list
// below: by src/dist/dist_carry.cu, and by the stub in dist_runtime.cpp
// when the library is built without CUDA.
template <class T, class Op>
void cuda_apply_carry(T* out, std::size_t n, T carry, Op op, stream_t stream);

#define GPUPRIM_DIST_CARRY_FOR_TYPE(T)                                               \
  template void cuda_apply_carry<T, plus>(T*, std::size_t, T, plus, stream_t);       \
  template void cuda_apply_carry<T, minimum>(T*, std::size_t, T, minimum, stream_t); \
  template void cuda_apply_carry<T, maximum>(T*, std::size_t, T, maximum, stream_t);
#define GPUPRIM_DIST_CARRY_INSTANTIATIONS    \
  GPUPRIM_DIST_CARRY_FOR_TYPE(std::int32_t)  \
  GPUPRIM_DIST_CARRY_FOR_TYPE(std::uint32_t) \
  GPUPRIM_DIST_CARRY_FOR_TYPE(std::int64_t)  \
  GPUPRIM_DIST_CARRY_FOR_TYPE(std::uint64_t) \
  GPUPRIM_DIST_CARRY_FOR_TYPE(float)         \
  GPUPRIM_DIST_CARRY_FOR_TYPE(double)

}  // namespace gpuprim::detail
