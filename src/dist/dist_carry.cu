// The carry-in of a GPU rank's inclusive scan: out[i] = op(carry, out[i]),
// for the types and operators the library's scans are precompiled for.
#include <algorithm>
#include <cstdint>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/dist/staging.hpp"

namespace gpuprim::detail {

template <class T, class Op>
__global__ void apply_carry_kernel(T* out, std::size_t n, T carry, Op op) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = op(carry, out[i]);
}

template <class T, class Op>
void cuda_apply_carry(T* out, std::size_t n, T carry, Op op, stream_t stream) {
  if (n == 0) return;
  constexpr unsigned threads = 256;
  // A grid-stride loop: enough blocks to fill any current GPU, no more.
  const unsigned blocks =
      static_cast<unsigned>(std::min<std::size_t>((n + threads - 1) / threads, 4096));
  apply_carry_kernel<<<blocks, threads, 0, reinterpret_cast<cudaStream_t>(stream)>>>(out, n, carry,
                                                                                     op);
  check_launch("apply_carry_kernel", "gpuprim::inclusive_scan (mpi carry)");
}

GPUPRIM_DIST_CARRY_INSTANTIATIONS

}  // namespace gpuprim::detail
