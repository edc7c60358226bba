// The CUDA services of gpuprim/core/*.hpp in a build without CUDA: the API
// is the same, cuda_device_count() is 0, and everything else says why it
// cannot work.
#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/error.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"

namespace gpuprim {
namespace {

[[noreturn]] void no_cuda(const char* call) {
  throw cuda_error(-1, call, "gpuprim", "this build of gpuprim has no CUDA backend");
}

class unavailable_resource final : public memory_resource {
 public:
  void* allocate(std::size_t, stream_t) override { no_cuda("scratch allocation"); }
  void deallocate(void*, std::size_t, stream_t) noexcept override {}
};

memory_resource* current_resource = nullptr;

}  // namespace

namespace detail {
void no_cuda_backend(const char* algorithm) {
  no_cuda(algorithm);
}
void* device_allocate(std::size_t bytes, const char*) {
  if (bytes == 0) return nullptr;
  no_cuda("cudaMalloc");
}
void device_free(void*) noexcept {}
void copy_to_device(void*, const void*, std::size_t bytes, stream_t) {
  if (bytes) no_cuda("cudaMemcpyAsync");
}
void copy_to_host(void*, const void*, std::size_t bytes, stream_t) {
  if (bytes) no_cuda("cudaMemcpyAsync");
}
void copy_device_to_device(void*, const void*, std::size_t bytes, stream_t) {
  if (bytes) no_cuda("cudaMemcpyAsync");
}
void fill_bytes(void*, int, std::size_t bytes, stream_t) {
  if (bytes) no_cuda("cudaMemsetAsync");
}
}  // namespace detail

int cuda_device_count() noexcept {
  return 0;
}
void synchronize(stream_t) {
  no_cuda("cudaStreamSynchronize");
}
int current_device() {
  no_cuda("cudaGetDevice");
}
device_info get_device_info(int) {
  no_cuda("cudaGetDeviceProperties");
}

memory_resource* default_scratch_resource() noexcept {
  static unavailable_resource resource;
  return &resource;
}
memory_resource* get_scratch_resource() noexcept {
  return current_resource ? current_resource : default_scratch_resource();
}
memory_resource* set_scratch_resource(memory_resource* resource) noexcept {
  memory_resource* previous = get_scratch_resource();
  current_resource = resource;
  return previous;
}

}  // namespace gpuprim
