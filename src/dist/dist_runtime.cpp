// Host-side services of the distributed part: CUDA-awareness of MPI, pinned
// staging buffers, strided sample copies.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "gpuprim/core/error.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/dist/staging.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime.h>
#endif
#if defined(GPUPRIM_HAS_MPI)
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>  // MPIX_Query_cuda_support, where OpenMPI was built with it
#endif
#include "gpuprim/dist/mpi.hpp"
#endif

namespace gpuprim {

#if defined(GPUPRIM_HAS_MPI)
bool mpi_cuda_aware() noexcept {
  if (const char* forced = std::getenv("GPUPRIM_MPI_CUDA_AWARE")) {
    return std::strcmp(forced, "1") == 0;
  }
#if GPUPRIM_HAS_CUDA && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  // Compiled with CUDA support; ask the library loaded at run time.
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}
#endif

namespace detail {

#if GPUPRIM_HAS_CUDA
namespace {
void check(cudaError_t code, const char* call, const char* algorithm) {
  if (code != cudaSuccess) {
    throw cuda_error(static_cast<int>(code), call, algorithm, cudaGetErrorString(code));
  }
}
}  // namespace

pinned_buffer::pinned_buffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  check(cudaMallocHost(&data_, bytes), "cudaMallocHost", "gpuprim::mpi staging");
}

pinned_buffer::~pinned_buffer() {
  if (data_) cudaFreeHost(data_);
}

void copy_strided_to_host(void* dst, const void* src, std::size_t element_bytes,
                          std::size_t stride_bytes, std::size_t count, stream_t stream) {
  if (count == 0) return;
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  check(cudaMemcpy2DAsync(dst, element_bytes, src, stride_bytes, element_bytes, count,
                          cudaMemcpyDeviceToHost, s),
        "cudaMemcpy2DAsync", "gpuprim::sort (samples)");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize", "gpuprim::sort (samples)");
}
#else
pinned_buffer::pinned_buffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  data_ = std::malloc(bytes);
  if (!data_) throw std::bad_alloc();
}

pinned_buffer::~pinned_buffer() {
  std::free(data_);
}

void copy_strided_to_host(void*, const void*, std::size_t, std::size_t, std::size_t, stream_t) {
  throw std::runtime_error("gpuprim: built without the CUDA backend");
}

// The GPU ranks' code is compiled in every build; without CUDA it is never
// reached, but it must link whatever the optimizer keeps (a Debug build).
template <class T, class Op>
void cuda_apply_carry(T*, std::size_t, T, Op, stream_t) {
  no_cuda_backend("inclusive_scan (mpi carry)");
}
GPUPRIM_DIST_CARRY_INSTANTIATIONS
#endif

}  // namespace detail
}  // namespace gpuprim
