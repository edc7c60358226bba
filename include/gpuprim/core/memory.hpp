// Scratch memory. Algorithms that need temporary device storage draw it from
// a memory_resource instead of asking the caller for it (no CUB-style
// "query the size, then call again"). The default resource is CUDA's
// stream-ordered allocator on each device's default pool, with the pool told
// to keep freed memory cached: after the first call, scratch allocation costs
// no device synchronization and no cudaMalloc.
#pragma once

#include <cstddef>

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

class memory_resource {
 public:
  virtual ~memory_resource() = default;
  // Memory usable by work enqueued on `stream` after this call.
  virtual void* allocate(std::size_t bytes, stream_t stream) = 0;
  // Memory may be reused by work enqueued on `stream` after this call.
  virtual void deallocate(void* ptr, std::size_t bytes, stream_t stream) noexcept = 0;
};

// The stream-ordered caching pool described above.
memory_resource* default_scratch_resource() noexcept;
// The resource algorithms use now (the default unless replaced).
memory_resource* get_scratch_resource() noexcept;
// Replaces the resource for all later calls; returns the previous one.
// nullptr restores the default. The caller keeps ownership.
memory_resource* set_scratch_resource(memory_resource* resource) noexcept;

namespace detail {

// Stream-ordered temporary device memory drawn from get_scratch_resource(),
// given back when the buffer goes out of scope (also when an exception
// passes).
class scratch_buffer {
 public:
  scratch_buffer(std::size_t bytes, stream_t stream)
      : resource_(get_scratch_resource()),
        bytes_(bytes),
        stream_(stream),
        data_(bytes ? resource_->allocate(bytes, stream) : nullptr) {}
  scratch_buffer(const scratch_buffer&) = delete;
  scratch_buffer& operator=(const scratch_buffer&) = delete;
  // Freed in stream order: work already enqueued on the stream may still use it.
  ~scratch_buffer() {
    if (data_) resource_->deallocate(data_, bytes_, stream_);
  }

  template <class T = void>
  T* get() const {
    return static_cast<T*>(data_);
  }

 private:
  memory_resource* resource_;
  std::size_t bytes_;
  stream_t stream_;
  void* data_;
};

}  // namespace detail
}  // namespace gpuprim
