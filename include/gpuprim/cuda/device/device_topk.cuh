// GPU backend of top-k (gpuprim/topk.hpp). Rows (one array is one row) of
// at most 4096 elements of at most 4 bytes with k <= 128 take one block a
// row (topk_rows_block.cuh); any other one array of a radix-key type
// (integers, float, double) takes the radix select of topk_select.cuh;
// other matrices and element types take
// the design below, built on the stable merge sort (device_merge.cuh):
//  1. the matrix is copied into (value, flat index) pairs, rows back to back;
//  2. the pairs are sorted stably by value in NumPy's order, descending for
//     the largest (gp::nan_first_greater) or ascending for the smallest
//     (gp::nan_last_less): equal values stay in index order, so ties go to
//     the smaller index, and NaN is the largest;
//  3. for more than one row, the flat indices are sorted stably by their
//     row, which keeps each row's value order;
//  4. each row's first k are written: the value read back from x by its
//     index, and the index within the row.
// It costs a full sort, O(n log n) (also the top-k ladder's first rung).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/device/device_merge.cuh"
#include "gpuprim/cuda/device/topk_rows_block.cuh"
#include "gpuprim/cuda/device/topk_select.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/detail/order/entry.hpp"
#include "gpuprim/order_types.hpp"

namespace gpuprim::cuda_impl {

template <class T>
__global__ void topk_gather_kernel(const T* __restrict__ x, std::uint64_t cols, std::uint64_t ld,
                                   std::uint64_t n, T* __restrict__ keys,
                                   std::int64_t* __restrict__ flat) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t f = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; f < n; f += stride) {
    keys[f] = x[f / cols * ld + f % cols];
    flat[f] = static_cast<std::int64_t>(f);
  }
}

template <class I>
__global__ void topk_row_of_kernel(const I* __restrict__ flat, std::uint64_t cols, std::uint64_t n,
                                   I* __restrict__ row) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t f = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; f < n; f += stride)
    row[f] = static_cast<I>(static_cast<std::uint64_t>(flat[f]) / cols);
}

template <class T>
__global__ void topk_write_kernel(const T* __restrict__ x, std::uint64_t cols, std::uint64_t ld,
                                  const std::int64_t* __restrict__ flat, std::uint64_t rows,
                                  std::uint64_t k, T* __restrict__ values, std::uint64_t ldv,
                                  std::int64_t* __restrict__ indices, std::uint64_t ldi) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t e = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < rows * k;
       e += stride) {
    const std::uint64_t r = e / k, j = e % k;
    const auto f = static_cast<std::uint64_t>(flat[r * cols + j]);
    const std::uint64_t c = f - r * cols;
    values[r * ldv + j] = x[r * ld + c];
    indices[r * ldi + j] = static_cast<std::int64_t>(c);
  }
}

inline launch_shape topk_shape(std::uint64_t n, stream_t stream) {
  launch_shape s;
  s.grid = dim3(static_cast<unsigned>(std::min<std::uint64_t>(ceil_div(n, 256), 1u << 16)));
  s.block = dim3(256);
  s.stream = stream;
  return s;
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

// Top-k of every row by full stable sorts (steps 1-4 above).
template <class T>
void cuda_topk_by_sort(const T* x, std::size_t rows, std::size_t cols, std::size_t ld,
                       std::size_t k, bool largest, T* values, std::size_t ldv,
                       std::int64_t* indices, std::size_t ldi, stream_t stream) {
  using namespace cuda_impl;
  const char* algorithm = rows == 1 ? "topk" : "topk_rows";
  const std::uint64_t n = std::uint64_t{rows} * cols;
  if (n == 0 || k == 0) return;
  const scratch_buffer key_buffer(n * sizeof(T), stream);
  const scratch_buffer flat_buffer(n * sizeof(std::int64_t), stream);
  T* keys = key_buffer.get<T>();
  auto* flat = flat_buffer.get<std::int64_t>();
  launch("topk_gather_kernel", algorithm, &topk_gather_kernel<T>, topk_shape(n, stream), x,
         std::uint64_t{cols}, std::uint64_t{ld}, n, keys, flat);
  if (largest) {
    cuda_merge_sort_into(keys, flat, n, nan_first_greater{}, stream);
  } else {
    cuda_merge_sort_into(keys, flat, n, nan_last_less{}, stream);
  }
  if (rows > 1) {
    const scratch_buffer row_buffer(n * sizeof(std::int64_t), stream);
    auto* row = row_buffer.get<std::int64_t>();
    launch("topk_row_of_kernel", algorithm, &topk_row_of_kernel<std::int64_t>,
           topk_shape(n, stream), static_cast<const std::int64_t*>(flat), std::uint64_t{cols}, n,
           row);
    cuda_merge_sort_into(row, flat, n, less{}, stream);
  }
  launch("topk_write_kernel", algorithm, &topk_write_kernel<T>,
         topk_shape(std::uint64_t{rows} * k, stream), x, std::uint64_t{cols}, std::uint64_t{ld},
         static_cast<const std::int64_t*>(flat), std::uint64_t{rows}, std::uint64_t{k}, values,
         std::uint64_t{ldv}, indices, std::uint64_t{ldi});
}

template <class T>
void cuda_topk_into(const T* x, std::size_t rows, std::size_t cols, std::size_t ld, std::size_t k,
                    bool largest, T* values, std::size_t ldv, std::int64_t* indices,
                    std::size_t ldi, stream_t stream) {
  if constexpr (cuda_impl::topk_select_key<T>) {
    if constexpr (cuda_impl::topk_block_key<T>) {
      if (cuda_impl::topk_block_fits<T>(rows, cols, k)) {
        cuda_impl::topk_rows_block(x, std::uint64_t{rows}, std::uint64_t{cols}, std::uint64_t{ld},
                                   std::uint64_t{k}, largest, values, std::uint64_t{ldv}, indices,
                                   std::uint64_t{ldi}, stream);
        return;
      }
    }
    if (rows == 1) {
      cuda_impl::topk_radix_select(x, std::uint64_t{cols}, std::uint64_t{k}, largest, values,
                                   indices, stream);
      return;
    }
  }
  cuda_topk_by_sort(x, rows, cols, ld, k, largest, values, ldv, indices, ldi, stream);
}

}  // namespace gpuprim::detail
