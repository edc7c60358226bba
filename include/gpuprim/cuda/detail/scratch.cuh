// Stream-ordered temporary device memory drawn from gp::get_scratch_resource().
#pragma once

#include <cstddef>

#include "gpuprim/core/memory.hpp"

namespace gpuprim::cuda_detail {

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

}  // namespace gpuprim::cuda_detail
