// The GPU side of gpu_sparse.hpp.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "gpu_sparse.hpp"
#include "gpuprim/cuda/block/block_reduce.cuh"

namespace gpuprim::python::gpu {

namespace {

using cuda_detail::block_reduce;
using cuda_detail::partial;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw std::runtime_error(std::string("gpuprim sparse: ") + what + ": " + cudaGetErrorString(e));
  }
}

// What the check kernel reports: the least (row << 3 | defect) of the bad
// rows, the longest row, the number of empty rows.
struct check_state {
  unsigned long long first_bad;
  unsigned long long max_row;
  unsigned long long empty_rows;
};

constexpr unsigned check_block = 256;

struct row_stats {
  unsigned long long longest, empty;
};

struct combine_row_stats {
  __device__ row_stats operator()(const row_stats& a, const row_stats& b) const {
    return {a.longest > b.longest ? a.longest : b.longest, a.empty + b.empty};
  }
};

// 1. A grid-stride loop over the rows: each row's two offsets against each
//    other and nnz (and offsets[0] against 0 for row 0).
// 2. With check_columns, the row's column indices against [0, cols).
// 3. A defect goes into first_bad by atomicMin (the first bad row wins);
//    the rows' lengths are reduced per thread, then per block, so one
//    atomic per block updates the statistics (one per row would serialize
//    millions of atomics on one address).
template <class I>
__global__ void __launch_bounds__(check_block)
    check_csr_kernel(const I* offsets, const I* columns, std::size_t rows, long long cols,
                     long long nnz, bool check_columns, check_state* state) {
  unsigned long long max_row = 0;
  unsigned long long empty_rows = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t r = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; r < rows;
       r += stride) {
    const long long b = offsets[r];
    const long long e = offsets[r + 1];
    int defect = 0;
    if (r == 0 && b != 0) {
      defect = static_cast<int>(csr_defect::first_offset);
    } else if (e < b) {
      defect = static_cast<int>(csr_defect::decreasing);
    } else if (e > nnz) {
      defect = static_cast<int>(csr_defect::past_end);
    } else if (r + 1 == rows && e != nnz) {
      defect = static_cast<int>(csr_defect::last_offset);
    } else if (check_columns) {
      for (long long k = b; k < e; ++k) {
        const long long c = columns[k];
        if (c < 0 || c >= cols) {
          defect = static_cast<int>(csr_defect::column_outside);
          break;
        }
      }
    }
    if (defect) {
      atomicMin(&state->first_bad, (static_cast<unsigned long long>(r) << 3) | defect);
      continue;
    }
    const unsigned long long len = static_cast<unsigned long long>(e - b);
    max_row = len > max_row ? len : max_row;
    empty_rows += len == 0;
  }
  __shared__ typename block_reduce<check_block, row_stats>::storage storage;
  const partial<row_stats> block = block_reduce<check_block, row_stats>{storage}.reduce(
      partial<row_stats>{{max_row, empty_rows}, true}, combine_row_stats{});
  if (threadIdx.x == 0) {
    if (block.value.longest) atomicMax(&state->max_row, block.value.longest);
    if (block.value.empty) atomicAdd(&state->empty_rows, block.value.empty);
  }
}

}  // namespace

csr_check_result check_csr(dtype index, const void* offsets, const void* columns, std::size_t rows,
                           std::size_t cols, std::size_t nnz, bool check_columns, stream_t stream) {
  auto s = static_cast<cudaStream_t>(stream);
  check_state* d = nullptr;
  check(cudaMallocAsync(reinterpret_cast<void**>(&d), sizeof(check_state), s), "cudaMallocAsync");
  const check_state init{~0ull, 0, 0};
  check_state h{};
  cudaError_t e = cudaMemcpyAsync(d, &init, sizeof init, cudaMemcpyHostToDevice, s);
  if (e == cudaSuccess) {
    // Enough blocks to fill the GPU; each thread then loops over rows.
    const std::size_t needed = (rows + check_block - 1) / check_block;
    const unsigned grid = static_cast<unsigned>(needed < 4096 ? needed : 4096);
    const unsigned block = check_block;
    if (index == dtype::int32) {
      check_csr_kernel<<<grid, block, 0, s>>>(
          static_cast<const std::int32_t*>(offsets), static_cast<const std::int32_t*>(columns),
          rows, static_cast<long long>(cols), static_cast<long long>(nnz), check_columns, d);
    } else {
      check_csr_kernel<<<grid, block, 0, s>>>(
          static_cast<const std::int64_t*>(offsets), static_cast<const std::int64_t*>(columns),
          rows, static_cast<long long>(cols), static_cast<long long>(nnz), check_columns, d);
    }
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaFreeAsync(d, s);
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  check(e, "checking the CSR matrix");
  csr_check_result r;
  if (h.first_bad != ~0ull) {
    r.defect = static_cast<csr_defect>(h.first_bad & 7);
    r.row = static_cast<std::int64_t>(h.first_bad >> 3);
  }
  r.max_row = h.max_row;
  r.empty_rows = h.empty_rows;
  return r;
}

}  // namespace gpuprim::python::gpu
