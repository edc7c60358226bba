// Device-wide reduction of the rows of a matrix with a fetch and a result
// transform (detail/segmented/rows.hpp), and the offsets of regular
// segments.
//
// Shape of the algorithm: one block per row. Each thread folds the row's
// elements j, j + Threads, j + 2 Threads, ... (the fetch sees each element
// with its position in the row); the block then combines its threads'
// values in a shared-memory tree, and thread 0 stores result(total). The
// order of operands depends only on the row length, so results repeat run
// to run. Rows are independent blocks: short rows waste threads, which is
// why plain sums, minima and maxima of rows go through
// gp::segmented_reduce (a group of lanes per short segment) instead; this
// form is for what needs a position or a transform (argmin / argmax,
// nansum).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/detail/segmented/rows.hpp"

namespace gpuprim::cuda_impl {

inline constexpr int reduce_rows_threads = 256;

template <class In, class T, class Op, class Fetch, class Out, class Result>
__global__ void __launch_bounds__(reduce_rows_threads)
    reduce_rows_by_blocks(const In* x, std::uint64_t cols, Out* out, T init, Op op, Fetch fetch,
                          Result result) {
  __shared__ T partial[reduce_rows_threads];
  const In* row = x + blockIdx.x * cols;
  T acc = init;
  for (std::uint64_t j = threadIdx.x; j < cols; j += reduce_rows_threads)
    acc = op(acc, fetch(row[j], j));
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = reduce_rows_threads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      partial[threadIdx.x] = op(partial[threadIdx.x], partial[threadIdx.x + stride]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = result(partial[0]);
}

// (A template so that every file including this header shares one
// definition.)
template <class Offset>
__global__ void __launch_bounds__(reduce_rows_threads)
    fill_regular_offsets(Offset* offsets, std::uint64_t count, Offset step) {
  const std::uint64_t i = blockIdx.x * std::uint64_t(reduce_rows_threads) + threadIdx.x;
  if (i < count) offsets[i] = static_cast<Offset>(i) * step;
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class In, class T, class Op, class Fetch, class Out, class Result>
void cuda_reduce_rows_into(const In* x, std::size_t rows, std::size_t cols, Out* out, T init, Op op,
                           Fetch fetch, Result result, stream_t stream) {
  // Grids of up to 2^31 - 1 blocks in x: more rows go in several launches.
  const std::size_t max_rows = (std::size_t{1} << 31) - 1;
  for (std::size_t first = 0; first < rows; first += max_rows) {
    const std::size_t count = std::min(max_rows, rows - first);
    cuda_impl::launch(
        "reduce_rows_by_blocks", "reduce_rows",
        cuda_impl::reduce_rows_by_blocks<In, T, Op, Fetch, Out, Result>,
        {dim3(static_cast<unsigned>(count)), dim3(cuda_impl::reduce_rows_threads), 0, stream},
        x + first * cols, static_cast<std::uint64_t>(cols), out + first, init, op, fetch, result);
  }
}

inline void regular_offsets_into(std::int64_t* offsets, std::size_t count, std::int64_t step,
                                 stream_t stream) {
  if (count == 0) return;
  const auto blocks =
      static_cast<unsigned>(cuda_impl::ceil_div(count, cuda_impl::reduce_rows_threads));
  cuda_impl::launch("fill_regular_offsets", "segmented_reduce",
                      cuda_impl::fill_regular_offsets<std::int64_t>,
                      {dim3(blocks), dim3(cuda_impl::reduce_rows_threads), 0, stream}, offsets,
                      static_cast<std::uint64_t>(count), step);
}

}  // namespace gpuprim::detail
