// The small set of CUDA runtime services the public headers need, declared
// here and defined in the compiled library (src/core/runtime.cpp), so that a
// program built with a plain C++ compiler can move data to and from the GPU.
// In a build without CUDA these throw gp::cuda_error ("built without CUDA"),
// except cuda_device_count(), which returns 0.
#pragma once

#include <cstddef>

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

// Number of usable CUDA devices; 0 when there is no driver, no device, or
// the library was built without CUDA. Never throws.
int cuda_device_count() noexcept;

// Blocks until all work on the stream has finished; throws on a failure.
void synchronize(stream_t stream = nullptr);

namespace detail {

// Throws gp::cuda_error saying this build has no CUDA backend.
[[noreturn]] void no_cuda_backend(const char* algorithm);

void* device_allocate(std::size_t bytes, const char* algorithm);
void device_free(void* ptr) noexcept;
// Stream-ordered copies; the host side of copy_to_host/copy_to_device must
// stay valid until the stream reaches the copy (the public helpers sync).
void copy_to_device(void* dst, const void* src, std::size_t bytes, stream_t stream);
void copy_to_host(void* dst, const void* src, std::size_t bytes, stream_t stream);
void copy_device_to_device(void* dst, const void* src, std::size_t bytes, stream_t stream);
void fill_bytes(void* dst, int value, std::size_t bytes, stream_t stream);

}  // namespace detail
}  // namespace gpuprim
