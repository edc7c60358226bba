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

}  // namespace gpuprim
