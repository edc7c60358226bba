// The structure check of a CSR matrix in device memory (gp::check_csr on
// gp::cuda, gpuprim/sparse.hpp): the host check's rules, on the device, with
// the row statistics the SpMV kernel choice reads.
//
// Shape of the algorithm:
//  1. csr_check_rows, grid-stride over the rows: each row's two offsets
//     against each other and nnz (row 0's first against 0, the last row's
//     end against nnz); a defect goes into first_bad as (row << 3 | defect)
//     by atomicMin, so the first bad row wins; the row lengths are reduced
//     per thread, then per block (block_reduce), and one atomic per block
//     updates the longest row and the count of empty rows.
//  2. csr_check_columns, grid-stride over the entries: the least entry
//     whose column index is outside [0, cols), by atomicMin. With valid
//     offsets, entries lie in row order, so its row is the first bad row.
//  3. The host copies the 4 words back (one synchronization) and, only
//     when something is wrong, the few values its message names.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/block/block_reduce.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/device/device_spmv.cuh"
#include "gpuprim/detail/sparse/spmv.hpp"

namespace gpuprim::cuda_impl {

// The words the check kernels write (device memory).
struct csr_check_words {
  unsigned long long first_bad;         // (row << 3 | defect) of the first bad row; ~0: none
  unsigned long long first_bad_column;  // the least entry with a bad column index; ~0: none
  unsigned long long max_row;
  unsigned long long empty_rows;
};

struct csr_row_lengths {
  unsigned long long longest, empty;
};

struct combine_row_lengths {
  __device__ csr_row_lengths operator()(const csr_row_lengths& a, const csr_row_lengths& b) const {
    return {a.longest > b.longest ? a.longest : b.longest, a.empty + b.empty};
  }
};

template <class I>
__global__ void __launch_bounds__(spmv_threads)
    csr_check_rows(std::size_t rows, long long nnz, const I* __restrict__ offsets,
                   csr_check_words* words) {
  unsigned long long longest = 0, empty = 0;
  for (std::size_t r = static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x; r < rows;
       r += static_cast<std::size_t>(gridDim.x) * spmv_threads) {
    const long long b = offsets[r];
    const long long e = offsets[r + 1];
    csr_defect defect = csr_defect::none;
    if (r == 0 && b != 0) {
      defect = csr_defect::first_offset;
    } else if (e < b) {
      defect = csr_defect::decreasing;
    } else if (e > nnz) {
      defect = csr_defect::past_end;
    } else if (r + 1 == rows && e != nnz) {
      defect = csr_defect::last_offset;
    }
    if (defect != csr_defect::none) {
      atomicMin(&words->first_bad, (static_cast<unsigned long long>(r) << 3) |
                                       static_cast<unsigned long long>(defect));
      continue;
    }
    const auto len = static_cast<unsigned long long>(e - b);
    longest = len > longest ? len : longest;
    empty += len == 0;
  }
  __shared__ typename block_reduce<spmv_threads, csr_row_lengths>::storage storage;
  const partial<csr_row_lengths> block =
      block_reduce<spmv_threads, csr_row_lengths>{storage}.reduce(
          partial<csr_row_lengths>{{longest, empty}, true}, combine_row_lengths{});
  if (threadIdx.x == 0) {
    if (block.value.longest) atomicMax(&words->max_row, block.value.longest);
    if (block.value.empty) atomicAdd(&words->empty_rows, block.value.empty);
  }
}

template <class I>
__global__ void __launch_bounds__(spmv_threads)
    csr_check_columns(std::size_t nnz, long long cols, const I* __restrict__ col_indices,
                      csr_check_words* words) {
  for (std::size_t k = static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x; k < nnz;
       k += static_cast<std::size_t>(gridDim.x) * spmv_threads) {
    const long long c = col_indices[k];
    if (c < 0 || c >= cols) {
      atomicMin(&words->first_bad_column, static_cast<unsigned long long>(k));
      return;  // a later entry of this thread cannot be less
    }
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class I>
csr_check_result cuda_check_csr(std::size_t rows, std::size_t cols, std::size_t nnz,
                                const I* offsets, const I* col_indices, stream_t stream) {
  using cuda_impl::csr_check_words;
  csr_check_result out;
  out.stats.known = true;
  out.stats.rows = rows;
  out.stats.nnz = nnz;
  const scratch_buffer buffer(sizeof(csr_check_words), stream);
  auto* words = buffer.get<csr_check_words>();
  fill_bytes(words, 0, sizeof(csr_check_words), stream);
  fill_bytes(words, 0xff, 2 * sizeof(unsigned long long), stream);
  auto offset_at = [&](std::size_t r) {
    I v{};
    copy_to_host(&v, offsets + r, sizeof v, stream);
    synchronize(stream);
    return static_cast<long long>(v);
  };
  if (rows == 0) {
    // The one offset: offsets[0] must be 0, and nnz with it.
    out.end = offset_at(0);
    out.defect = out.end != 0 ? csr_defect::first_offset
                 : nnz != 0   ? csr_defect::last_offset
                              : csr_defect::none;
    out.begin = out.end;
    return out;
  }
  {
    auto kernel = cuda_impl::csr_check_rows<I>;
    cuda_impl::launch(
        "csr_check_rows", "check_csr", kernel,
        {dim3(cuda_impl::grid_for(kernel, rows)), dim3(cuda_impl::spmv_threads), 0, stream},
        rows, static_cast<long long>(nnz), offsets, words);
  }
  if (nnz > 0) {
    auto kernel = cuda_impl::csr_check_columns<I>;
    cuda_impl::launch(
        "csr_check_columns", "check_csr", kernel,
        {dim3(cuda_impl::grid_for(kernel, nnz)), dim3(cuda_impl::spmv_threads), 0, stream}, nnz,
        static_cast<long long>(cols), col_indices, words);
  }
  csr_check_words host{};
  copy_to_host(&host, words, sizeof host, stream);
  synchronize(stream);
  if (host.first_bad != ~0ull) {
    out.defect = static_cast<csr_defect>(host.first_bad & 7);
    out.row = static_cast<std::size_t>(host.first_bad >> 3);
    out.begin = offset_at(out.row);
    out.end = offset_at(out.row + 1);
    return out;
  }
  if (host.first_bad_column != ~0ull) {
    // The row holding entry k: the last r with offsets[r] <= k (offsets
    // are valid here), by bisection over single offsets.
    const auto k = static_cast<long long>(host.first_bad_column);
    std::size_t lo = 0, hi = rows;  // offsets[lo] <= k < offsets[hi]
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      (offset_at(mid) <= k ? lo : hi) = mid;
    }
    I column{};
    copy_to_host(&column, col_indices + k, sizeof column, stream);
    synchronize(stream);
    out.defect = csr_defect::column_outside;
    out.row = lo;
    out.column = static_cast<long long>(column);
    return out;
  }
  out.stats.max_row = static_cast<std::size_t>(host.max_row);
  out.stats.empty_rows = static_cast<std::size_t>(host.empty_rows);
  return out;
}

}  // namespace gpuprim::detail
